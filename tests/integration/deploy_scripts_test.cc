// The deployment files: deploy/make-certs.sh, the dev CA and certificates
// every TLS test, the demo and the README rely on (run, and inspected with
// the openssl CLI); deploy/make-secrets.sh; deploy/nginx/render-conf.sh,
// which renders the nginx template for compose and the tests; and the
// structure of deploy/compose.yaml and deploy/k8s (docs/operations.md).
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "tests/integration/harness.h"
#include "tests/integration/nginx_proxy.h"

namespace dpq::integration {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::Not;

const char* const kFiles[] = {"ca.pem",     "ca.key",     "server.pem",
                              "server.key", "client.pem", "client.key"};

std::string Script() {
  return absl::StrCat(kSourceDir, "/deploy/make-certs.sh");
}

CommandResult Openssl(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"/usr/bin/openssl"};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunCommand(argv);
}

int Mode(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 0777) : -1;
}

TEST(MakeCertsTest, MakesACaServerAndClientCertificate) {
  TempDir dir;
  const std::string out = dir.Sub("certs");
  const CommandResult r = RunCommand({"/bin/bash", Script(), out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : kFiles) {
    const std::string path = out + "/" + f;
    ASSERT_TRUE(std::filesystem::exists(path)) << f;
    if (absl::EndsWith(f, ".key")) {
      EXPECT_EQ(Mode(path), 0600) << f << " must be private";
      const CommandResult key =
          Openssl({"pkey", "-in", path, "-noout", "-text"});
      EXPECT_THAT(key.out, AnyOf(HasSubstr("P-256"), HasSubstr("prime256v1")))
          << f;
    }
  }
  const CommandResult verify =
      Openssl({"verify", "-CAfile", out + "/ca.pem", out + "/server.pem",
               out + "/client.pem"});
  EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;

  const CommandResult server =
      Openssl({"x509", "-in", out + "/server.pem", "-noout", "-ext",
               "subjectAltName,extendedKeyUsage"});
  EXPECT_THAT(server.out, HasSubstr("DNS:localhost"));
  EXPECT_THAT(server.out, HasSubstr("IP Address:127.0.0.1"));
  EXPECT_THAT(server.out, HasSubstr("IP Address:0:0:0:0:0:0:0:1"));
  EXPECT_THAT(server.out, HasSubstr("TLS Web Server Authentication"));
  const CommandResult client = Openssl({"x509", "-in", out + "/client.pem",
                                        "-noout", "-ext", "extendedKeyUsage"});
  EXPECT_THAT(client.out, HasSubstr("TLS Web Client Authentication"));

  // At most 825 days: expires within 826 days, not within 824.
  for (const char* cert : {"ca.pem", "server.pem", "client.pem"}) {
    const std::string path = out + "/" + cert;
    EXPECT_EQ(Openssl({"x509", "-in", path, "-noout", "-checkend",
                       std::to_string(826 * 86400)})
                  .exit_code,
              1)
        << cert << " is valid for more than 825 days";
    EXPECT_EQ(Openssl({"x509", "-in", path, "-noout", "-checkend",
                       std::to_string(824 * 86400)})
                  .exit_code,
              0)
        << cert;
  }
}

TEST(MakeCertsTest, IsIdempotentUnlessForced) {
  TempDir dir;
  const std::string out = dir.Sub("certs");
  ASSERT_EQ(RunCommand({"/bin/bash", Script(), out}).exit_code, 0);
  std::map<std::string, std::string> first;
  for (const char* f : kFiles) first[f] = ReadFileOrEmpty(out + "/" + f);

  const CommandResult again = RunCommand({"/bin/bash", Script(), out});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("already"));
  for (const char* f : kFiles) {
    EXPECT_EQ(ReadFileOrEmpty(out + "/" + f), first[f]) << f << " changed";
  }

  // A missing leaf is re-issued by the same CA; the rest is kept.
  std::filesystem::remove(out + "/client.pem");
  ASSERT_EQ(RunCommand({"/bin/bash", Script(), out}).exit_code, 0);
  EXPECT_EQ(ReadFileOrEmpty(out + "/ca.pem"), first["ca.pem"]);
  EXPECT_EQ(ReadFileOrEmpty(out + "/server.pem"), first["server.pem"]);
  EXPECT_NE(ReadFileOrEmpty(out + "/client.key"), first["client.key"]);
  EXPECT_EQ(Openssl({"verify", "-CAfile", out + "/ca.pem", out + "/client.pem"})
                .exit_code,
            0);

  const CommandResult forced = RunCommand(
      {"/bin/bash", Script(), out, "--force", "--server-name", "dpq.example"});
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  for (const char* f : kFiles) {
    EXPECT_NE(ReadFileOrEmpty(out + "/" + f), first[f]) << f << " kept";
  }
  EXPECT_THAT(Openssl({"x509", "-in", out + "/server.pem", "-noout", "-ext",
                       "subjectAltName"})
                  .out,
              HasSubstr("DNS:dpq.example"));
}

TEST(MakeCertsTest, UsageErrorWithoutAnOutputDirectory) {
  const CommandResult r = RunCommand({"/bin/bash", Script()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("usage"));
}

// deploy/make-secrets.sh: the admin token, the database password and the
// DSN built from it, readable inside containers (0644) in a private (0700)
// directory; kept on a second run, replaced with --force.
TEST(MakeSecretsTest, MakesTheTokenPasswordAndDsnOnce) {
  TempDir dir;
  const std::string out = dir.Sub("secrets");
  const std::string script =
      absl::StrCat(kSourceDir, "/deploy/make-secrets.sh");
  const CommandResult r = RunCommand({"/bin/bash", script, out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Mode(out), 0700);
  std::map<std::string, std::string> first;
  for (const char* f : {"admin.token", "postgres.password", "database.dsn"}) {
    EXPECT_EQ(Mode(out + "/" + f), 0644) << f;
    first[f] = ReadFileOrEmpty(out + "/" + f);
  }
  const std::string token(absl::StripSuffix(first["admin.token"], "\n"));
  ASSERT_EQ(token.size(), 4u + 64u) << token;
  EXPECT_TRUE(absl::StartsWith(token, "dpq_"));
  EXPECT_EQ(token.find_first_not_of("0123456789abcdef", 4), std::string::npos);
  const std::string password(
      absl::StripSuffix(first["postgres.password"], "\n"));
  EXPECT_GE(password.size(), 32u);
  EXPECT_EQ(first["database.dsn"], absl::StrCat("postgresql://dpq:", password,
                                                "@postgres:5432/dpq\n"));

  const CommandResult again = RunCommand({"/bin/bash", script, out});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("already"));
  for (const auto& [f, contents] : first) {
    EXPECT_EQ(ReadFileOrEmpty(out + "/" + f), contents) << f << " changed";
  }
  // A missing DSN is made again from the kept password, for another host.
  std::filesystem::remove(out + "/database.dsn");
  ASSERT_EQ(RunCommand({"/bin/bash", script, out, "--database-host",
                        "db.example", "--database-port", "6432"})
                .exit_code,
            0);
  EXPECT_EQ(
      ReadFileOrEmpty(out + "/database.dsn"),
      absl::StrCat("postgresql://dpq:", password, "@db.example:6432/dpq\n"));
  const CommandResult forced =
      RunCommand({"/bin/bash", script, out, "--force"});
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  for (const auto& [f, contents] : first) {
    EXPECT_NE(ReadFileOrEmpty(out + "/" + f), contents) << f << " kept";
  }
  EXPECT_EQ(RunCommand({"/bin/bash", script, out, "--database-host", "a b"})
                .exit_code,
            2);
}

// render-conf.sh RUNS renders deploy/nginx/dpq.conf with `env` into OUT.
CommandResult RenderNginx(const std::map<std::string, std::string>& env,
                          const std::string& out,
                          const std::string& template_path = "") {
  return RunCommand(
      {"/bin/bash", absl::StrCat(kSourceDir, "/deploy/nginx/render-conf.sh"),
       template_path.empty()
           ? absl::StrCat(kSourceDir, "/deploy/nginx/dpq.conf")
           : template_path,
       out},
      env);
}

std::vector<std::string> LinesContaining(const std::string& text,
                                         const std::string& needle) {
  std::vector<std::string> out;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::StrContains(line, needle)) {
      out.emplace_back(absl::StripAsciiWhitespace(line));
    }
  }
  return out;
}

// One upstream `server` line per replica, the placeholders filled in, and
// a configuration that Debian's nginx accepts (`nginx -t`).
TEST(NginxConfTest, RendersOneServerLinePerReplicaAndNginxAcceptsIt) {
  TempDir dir;
  absl::StatusOr<Certs> certs = MakeCerts(dir.Sub("certs"));
  ASSERT_TRUE(certs.ok()) << certs.status();
  const std::string out = dir.Sub("nginx.conf");
  const CommandResult r =
      RenderNginx({{"DPQ_UPSTREAMS", "dpq-1:50051, dpq-2:50051 [::1]:7000"},
                   {"DPQ_LISTEN", "127.0.0.1:0"},
                   {"DPQ_TLS_CERT", certs->server_cert()},
                   {"DPQ_TLS_KEY", certs->server_key()},
                   {"DPQ_UPSTREAM_CA", certs->ca()}},
                  out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string conf = ReadFileOrEmpty(out);
  // Never marked down (a rolling upgrade lost calls when they were).
  EXPECT_THAT(
      LinesContaining(conf, "max_fails="),
      ::testing::ElementsAre(HasSubstr("server dpq-1:50051 max_fails=0;"),
                             HasSubstr("server dpq-2:50051 max_fails=0;"),
                             HasSubstr("server [::1]:7000 max_fails=0;")));
  EXPECT_THAT(conf, Not(HasSubstr("@DPQ_")));
  EXPECT_THAT(conf, HasSubstr("listen 127.0.0.1:0 ssl http2;"));
  EXPECT_THAT(conf, HasSubstr("grpc_pass grpcs://dpq_replicas;"));
  EXPECT_THAT(conf, HasSubstr("grpc_ssl_name localhost;"));
  EXPECT_THAT(conf, HasSubstr("ssl_certificate " + certs->server_cert() + ";"));
  EXPECT_THAT(conf,
              HasSubstr("grpc_ssl_trusted_certificate " + certs->ca() + ";"));

  // nginx -t resolves the upstream names: test a copy with loopback ones
  // (and a real port: nginx refuses port 0).
  const CommandResult local =
      RenderNginx({{"DPQ_UPSTREAMS", "127.0.0.1:1 127.0.0.1:2"},
                   {"DPQ_LISTEN", "127.0.0.1:50051"},
                   {"DPQ_TLS_CERT", certs->server_cert()},
                   {"DPQ_TLS_KEY", certs->server_key()},
                   {"DPQ_UPSTREAM_CA", certs->ca()}},
                  out);
  ASSERT_EQ(local.exit_code, 0) << local.err;
  ASSERT_EQ(::access(kNginxBinary, X_OK), 0)
      << kNginxBinary << " is missing: run deploy/install-deps.sh";
  std::vector<std::string> test = {kNginxBinary,     "-t", "-q", "-p",
                                   dir.path() + "/", "-c", out,  "-e",
                                   "stderr"};
  if (::geteuid() == 0) test.insert(test.end(), {"-g", "user root;"});
  const CommandResult checked = RunCommand(test);
  EXPECT_EQ(checked.exit_code, 0) << checked.err;
}

// Values that would add or end nginx directives are refused, as are
// templates with placeholders the script does not know.
TEST(NginxConfTest, RefusesValuesThatCouldInjectDirectives) {
  TempDir dir;
  const std::string out = dir.Sub("nginx.conf");
  const std::vector<std::map<std::string, std::string>> bad = {
      {},  // no DPQ_UPSTREAMS
      {{"DPQ_UPSTREAMS", " , "}},
      {{"DPQ_UPSTREAMS", "dpq-1:50051;"}},
      {{"DPQ_UPSTREAMS", "dpq-1"}},
      {{"DPQ_UPSTREAMS", "dpq-1:50051 backup"}},
      {{"DPQ_UPSTREAMS", "dpq-1:50051"},
       {"DPQ_TLS_CERT", "/a.pem; include /etc/x"}},
      {{"DPQ_UPSTREAMS", "dpq-1:50051"}, {"DPQ_LISTEN", "0.0.0.0:50051 }"}},
      {{"DPQ_UPSTREAMS", "dpq-1:50051"}, {"DPQ_UPSTREAM_TLS_NAME", "$host"}},
      {{"DPQ_UPSTREAMS", "dpq-1:50051"}, {"DPQ_UPSTREAM_CA", "a#b"}},
  };
  for (const auto& env : bad) {
    std::map<std::string, std::string> e = env;
    if (!e.count("DPQ_UPSTREAMS")) e["-DPQ_UPSTREAMS"] = "";
    const CommandResult r = RenderNginx(e, out);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_THAT(r.err, HasSubstr("render-conf:"));
    EXPECT_FALSE(std::filesystem::exists(out));
  }
  const std::string unknown = dir.Sub("unknown.conf");
  WriteFileOrDie(unknown, "server @DPQ_UPSTREAM@;\nlisten @DPQ_PORT@;\n");
  const CommandResult r =
      RenderNginx({{"DPQ_UPSTREAMS", "dpq-1:50051"}}, out, unknown);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("@DPQ_PORT@"));
}

// The block of a YAML key: the line reading exactly `header` after its
// indentation (the least indented such line, so "dpq-1:" is the service,
// not an entry of another service's depends_on), and the lines after it
// that are indented more (comments and blank lines included). Empty if
// absent.
std::string YamlBlock(const std::string& text, const std::string& header) {
  const std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  auto indent_of = [](absl::string_view line) {
    return line.size() - absl::StripLeadingAsciiWhitespace(line).size();
  };
  size_t start = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (absl::StripAsciiWhitespace(lines[i]) == header &&
        (start == lines.size() ||
         indent_of(lines[i]) < indent_of(lines[start]))) {
      start = i;
    }
  }
  if (start == lines.size()) return "";
  const size_t indent = indent_of(lines[start]);
  std::string block = absl::StrCat(lines[start], "\n");
  for (size_t i = start + 1; i < lines.size(); ++i) {
    const absl::string_view stripped =
        absl::StripLeadingAsciiWhitespace(lines[i]);
    if (!stripped.empty() && !absl::StartsWith(stripped, "#") &&
        indent_of(lines[i]) <= indent) {
      break;
    }
    absl::StrAppend(&block, lines[i], "\n");
  }
  return block;
}

std::string DeployFile(const std::string& relative) {
  return ReadFileOrEmpty(absl::StrCat(kSourceDir, "/deploy/", relative));
}

// "--flag\n      - value": the value after a flag in a YAML list.
std::string FlagValue(const std::string& block, const std::string& flag) {
  std::vector<std::string> lines = absl::StrSplit(block, '\n');
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    if (absl::StripAsciiWhitespace(lines[i]) == "- " + flag) {
      return std::string(
          absl::StripPrefix(absl::StripAsciiWhitespace(lines[i + 1]), "- "));
    }
  }
  return "";
}

// What matters in deploy/compose.yaml, read line by line (no YAML library
// needed): two replicas on the same DSN and admin token with distinct ids
// and caches, health checks, nginx after both.
TEST(DeployManifestsTest, ComposeRunsTwoReplicasOnOneDatabaseBehindNginx) {
  const std::string compose = DeployFile("compose.yaml");
  ASSERT_FALSE(compose.empty());
  const std::string postgres = YamlBlock(compose, "postgres:");
  EXPECT_THAT(postgres,
              HasSubstr("image: docker.io/library/postgres:15-bookworm"));
  EXPECT_THAT(postgres, HasSubstr("pg_isready"));
  EXPECT_THAT(postgres, HasSubstr("postgres-data:/var/lib/postgresql/data"));
  std::map<std::string, std::string> replica_ids;
  for (const char* name : {"dpq-1", "dpq-2"}) {
    SCOPED_TRACE(name);
    const std::string replica = YamlBlock(compose, absl::StrCat(name, ":"));
    ASSERT_FALSE(replica.empty());
    EXPECT_EQ(FlagValue(replica, "--database-file"),
              "/run/secrets/database_dsn");
    EXPECT_EQ(FlagValue(replica, "--admin-token-file"),
              "/run/secrets/admin_token");
    EXPECT_EQ(FlagValue(replica, "--data-dir"), "/data");
    replica_ids[name] = FlagValue(replica, "--replica-id");
    EXPECT_THAT(replica, HasSubstr(absl::StrCat("- ", name, "-cache:/data")));
    EXPECT_THAT(YamlBlock(replica, "secrets:"), HasSubstr("- database_dsn"));
    EXPECT_THAT(YamlBlock(replica, "depends_on:"), HasSubstr("postgres:"));
    EXPECT_THAT(YamlBlock(replica, "healthcheck:"),
                HasSubstr("[\"CMD\", \"dpq\", \"health\""));
    EXPECT_THAT(replica, Not(HasSubstr("ports:")))
        << "only nginx is reachable from outside";
    // Metrics on the compose network only (docs/operations.md, "Metrics").
    EXPECT_EQ(FlagValue(replica, "--metrics-listen"), "0.0.0.0:9464");
    EXPECT_THAT(YamlBlock(replica, "expose:"), HasSubstr("- \"9464\""));
  }
  EXPECT_EQ(replica_ids["dpq-1"], "dpq-1");
  EXPECT_EQ(replica_ids["dpq-2"], "dpq-2");

  const std::string nginx = YamlBlock(compose, "nginx:");
  ASSERT_FALSE(nginx.empty());
  const std::string depends = YamlBlock(nginx, "depends_on:");
  EXPECT_THAT(YamlBlock(depends, "dpq-1:"), HasSubstr("service_healthy"));
  EXPECT_THAT(YamlBlock(depends, "dpq-2:"), HasSubstr("service_healthy"));
  EXPECT_THAT(nginx, HasSubstr("DPQ_UPSTREAMS: \"dpq-1:50051 dpq-2:50051\""));
  EXPECT_THAT(nginx, HasSubstr("dockerfile: deploy/nginx/Dockerfile"));
  EXPECT_THAT(nginx, HasSubstr("\"50051:50051\""));
  EXPECT_THAT(nginx, HasSubstr("healthcheck:"));
  const std::string secrets = YamlBlock(compose, "secrets:");
  EXPECT_THAT(YamlBlock(secrets, "database_dsn:"),
              HasSubstr("file: ./secrets/database.dsn"));
  EXPECT_THAT(YamlBlock(secrets, "admin_token:"),
              HasSubstr("file: ./secrets/admin.token"));
  // The nginx image renders the same template the tests use.
  const std::string dockerfile = DeployFile("nginx/Dockerfile");
  EXPECT_THAT(dockerfile, HasSubstr("COPY deploy/nginx/dpq.conf"));
  EXPECT_THAT(dockerfile, HasSubstr("COPY deploy/nginx/render-conf.sh"));
  EXPECT_THAT(dockerfile, HasSubstr("nginx-light"));
}

// deploy/k8s: two replicas, the DSN and the admin token from Secrets,
// gRPC health readiness, an emptyDir cache; deploy/k8s/embedded keeps one
// replica on a PersistentVolume.
TEST(DeployManifestsTest, KubernetesRunsTwoReplicasFromSecrets) {
  const std::string deployment = DeployFile("k8s/deployment.yaml");
  ASSERT_FALSE(deployment.empty());
  EXPECT_THAT(deployment, HasSubstr("\n  replicas: 2\n"));
  EXPECT_THAT(deployment, HasSubstr("type: RollingUpdate"));
  EXPECT_EQ(FlagValue(deployment, "--database-file"), "/etc/dpq-database/dsn");
  EXPECT_EQ(FlagValue(deployment, "--admin-token-file"),
            "/etc/dpq-admin/admin.token");
  EXPECT_EQ(FlagValue(deployment, "--replica-id"), "$(POD_NAME)");
  EXPECT_THAT(YamlBlock(deployment, "readinessProbe:"), HasSubstr("- health"));
  EXPECT_THAT(YamlBlock(deployment, "startupProbe:"), HasSubstr("- health"));
  EXPECT_THAT(YamlBlock(deployment, "livenessProbe:"), HasSubstr("tcpSocket"));
  const std::string volumes = YamlBlock(deployment, "volumes:");
  EXPECT_THAT(volumes, HasSubstr("secretName: dpq-database"));
  EXPECT_THAT(volumes, HasSubstr("secretName: dpq-admin-token"));
  EXPECT_THAT(YamlBlock(volumes, "- name: cache"), HasSubstr("emptyDir"));
  EXPECT_THAT(deployment, Not(HasSubstr("persistentVolumeClaim")));
  const std::string kustomization = DeployFile("k8s/kustomization.yaml");
  EXPECT_THAT(kustomization, HasSubstr("- name: dpq-database"));
  EXPECT_THAT(kustomization, HasSubstr("- dsn=secrets/database.dsn"));
  EXPECT_THAT(kustomization, HasSubstr("- admin.token=secrets/admin.token"));
  const std::string examples = DeployFile("k8s/secrets.example.yaml");
  EXPECT_THAT(examples, HasSubstr("name: dpq-database"));
  EXPECT_THAT(examples, HasSubstr("name: dpq-admin-token"));

  const std::string embedded = DeployFile("k8s/embedded/deployment.yaml");
  // Every pod's metrics, scraped through the prometheus.io annotations.
  for (const std::string* manifest : {&deployment, &embedded}) {
    EXPECT_EQ(FlagValue(*manifest, "--metrics-listen"), "0.0.0.0:9464");
    EXPECT_THAT(*manifest, HasSubstr("prometheus.io/scrape: \"true\""));
    EXPECT_THAT(*manifest, HasSubstr("prometheus.io/port: \"9464\""));
    EXPECT_THAT(YamlBlock(*manifest, "- name: metrics"),
                HasSubstr("containerPort: 9464"));
  }
  EXPECT_THAT(DeployFile("k8s/service.yaml"), Not(HasSubstr("9464")))
      << "metrics stay inside the cluster network";
  // ... and inside it, only Prometheus reaches them (docs/operations.md): a
  // NetworkPolicy in both kustomizations (checked in detail below).
  for (const char* dir : {"k8s", "k8s/embedded"}) {
    EXPECT_THAT(DeployFile(absl::StrCat(dir, "/kustomization.yaml")),
                HasSubstr("- networkpolicy.yaml"))
        << dir;
    EXPECT_THAT(DeployFile(absl::StrCat(dir, "/networkpolicy.yaml")),
                HasSubstr("kind: NetworkPolicy"))
        << dir;
  }
  const std::string single = DeployFile("compose.single.yaml");
  EXPECT_EQ(FlagValue(single, "--metrics-listen"), "0.0.0.0:9464");
  EXPECT_THAT(single, HasSubstr("- \"127.0.0.1:9464:9464\""))
      << "published on the host's loopback only";
  EXPECT_THAT(embedded, HasSubstr("\n  replicas: 1\n"));
  EXPECT_THAT(embedded, HasSubstr("type: Recreate"));
  EXPECT_THAT(embedded, HasSubstr("claimName: dpq-data"));
  EXPECT_THAT(embedded, Not(HasSubstr("--database")));
}

// The same facts from a real YAML parser (Debian's python3-yaml), which
// also checks every file's syntax. Without it this test is skipped, saying
// so; the line-based tests above check the same facts without it.
constexpr char kCheckManifests[] = R"py(
import glob, sys, yaml
root = sys.argv[1]
errors = []
def check(ok, what):
    if not ok: errors.append(what)
def flag(args, name):
    return args[args.index(name) + 1] if name in args else None
docs = {}
for path in sorted(glob.glob(root + '/deploy/compose*.yaml') +
                   glob.glob(root + '/deploy/k8s/*.yaml') +
                   glob.glob(root + '/deploy/k8s/embedded/*.yaml') +
                   glob.glob(root + '/deploy/k8s/http/*.yaml')):
    with open(path) as f:
        docs[path[len(root) + 1:]] = [d for d in yaml.safe_load_all(f) if d]
services = docs['deploy/compose.yaml'][0]['services']
replicas = sorted(n for n, s in services.items()
                  if s.get('image') == 'dpq:latest')
check(replicas == ['dpq-1', 'dpq-2'], 'dpq replicas: %s' % replicas)
ids, dsns, tokens, caches = set(), set(), set(), set()
for name in replicas:
    s = services[name]
    ids.add(flag(s['command'], '--replica-id'))
    dsns.add(flag(s['command'], '--database-file'))
    tokens.add(flag(s['command'], '--admin-token-file'))
    caches.update(v.split(':')[0] for v in s['volumes'] if v.endswith(':/data'))
    check('database_dsn' in s['secrets'], name + ' lacks the DSN secret')
    check(s['depends_on']['postgres']['condition'] == 'service_healthy',
          name + ' does not wait for postgres')
    check('health' in s['healthcheck']['test'], name + ' has no health check')
    check('ports' not in s, name + ' publishes a port')
    metrics = flag(s['command'], '--metrics-listen')
    check(metrics is not None and
          [metrics.rsplit(':', 1)[1]] == [str(p) for p in s.get('expose', [])],
          name + ' exposes its metrics port: %s %s' % (metrics, s.get('expose')))
check(ids == {'dpq-1', 'dpq-2'}, 'replica ids %s' % ids)
check(dsns == {'/run/secrets/database_dsn'}, 'DSN sources %s' % dsns)
check(len(tokens) == 1, 'admin token files %s' % tokens)
check(len(caches) == 2, 'data-directory volumes %s' % caches)
nginx = services['nginx']
check(set(nginx['depends_on']) >= {'dpq-1', 'dpq-2'}, 'nginx depends_on')
check(all(nginx['depends_on'][r]['condition'] == 'service_healthy'
          for r in replicas), 'nginx waits for healthy replicas')
check(nginx['environment']['DPQ_UPSTREAMS'].split() ==
      ['dpq-1:50051', 'dpq-2:50051'], 'nginx upstreams')
check('healthcheck' in nginx, 'nginx health check')
check('pg_isready' in services['postgres']['healthcheck']['test'],
      'postgres health check')
secrets = docs['deploy/compose.yaml'][0]['secrets']
check(secrets['database_dsn']['file'] == './secrets/database.dsn', 'DSN file')
single = docs['deploy/compose.single.yaml'][0]['services']
check(list(single) == ['dpq'] and '--database-file' not in
      single['dpq']['command'], 'compose.single.yaml: one embedded server')
single_metrics = flag(single['dpq']['command'], '--metrics-listen')
check(single_metrics is not None and
      '127.0.0.1:%s:%s' % ((single_metrics.rsplit(':', 1)[1],) * 2)
      in single['dpq']['ports'],
      'compose.single.yaml publishes its metrics on loopback only')

def check_metrics(path, d):
    """The pod is annotated for scraping on the port its server listens on."""
    c = d['spec']['template']['spec']['containers'][0]
    port = flag(c['args'], '--metrics-listen')
    annotations = d['spec']['template']['metadata'].get('annotations', {})
    ports = {p['name']: p['containerPort'] for p in c['ports']}
    check(port is not None and
          str(ports.get('metrics')) == port.rsplit(':', 1)[1] ==
          annotations.get('prometheus.io/port') and
          annotations.get('prometheus.io/scrape') == 'true' and
          annotations.get('prometheus.io/path') == '/metrics',
          path + ': metrics port, container port and annotations agree')

def deployment(path):
    return next(d for d in docs[path] if d['kind'] == 'Deployment')
d = deployment('deploy/k8s/deployment.yaml')
check(d['spec']['replicas'] == 2, 'k8s replicas')
pod = d['spec']['template']['spec']
c = pod['containers'][0]
volumes = {v['name']: v for v in pod['volumes']}
mounts = {m['mountPath']: m['name'] for m in c['volumeMounts']}
dsn = flag(c['args'], '--database-file')
dsn_volume = volumes.get(mounts.get(dsn.rsplit('/', 1)[0]), {})
check(dsn_volume.get('secret', {}).get('secretName') == 'dpq-database',
      'the DSN comes from the Secret dpq-database')
token = flag(c['args'], '--admin-token-file')
token_volume = volumes.get(mounts.get(token.rsplit('/', 1)[0]), {})
check(token_volume.get('secret', {}).get('secretName') == 'dpq-admin-token',
      'the admin token comes from the Secret dpq-admin-token')
check('emptyDir' in volumes[mounts['/data']], 'the cache is an emptyDir')
check(flag(c['args'], '--replica-id') == '$(POD_NAME)', 'replica id')
check('health' in c['readinessProbe']['exec']['command'], 'readiness')
check('livenessProbe' in c and 'startupProbe' in c, 'liveness, startup')
check_metrics('deploy/k8s/deployment.yaml', d)
labels = d['spec']['template']['metadata']['labels']
service = docs['deploy/k8s/service.yaml'][0]
check(all(labels.get(k) == v for k, v in service['spec']['selector'].items()),
      'the Service selects the pods')
kustomization = docs['deploy/k8s/kustomization.yaml'][0]
generated = {g['name'] for g in kustomization['secretGenerator']}
check(generated >= {'dpq-tls', 'dpq-database', 'dpq-admin-token'},
      'generated secrets %s' % generated)
e = deployment('deploy/k8s/embedded/deployment.yaml')
check(e['spec']['replicas'] == 1 and
      e['spec']['strategy']['type'] == 'Recreate', 'embedded: one replica')
check_metrics('deploy/k8s/embedded/deployment.yaml', e)
check(all(p.get('port') != 9464 and p.get('targetPort') not in (9464, 'metrics')
          for p in service['spec']['ports']),
      'the Service does not carry the metrics port')

def admits(rule, name, number):
    """True if the ingress rule lets traffic to the named/numbered port in."""
    ports = rule.get('ports')
    if not ports:
        return True
    for p in ports:
        port = p.get('port')
        if port is None or port == name or port == number:
            return True
        if isinstance(port, int) and port <= number <= p.get('endPort', port):
            return True
    return False

def restricted(peer):
    """A peer that is not 'every pod' (nor an address block)."""
    if 'ipBlock' in peer:
        return False
    selectors = [peer[k] for k in ('podSelector', 'namespaceSelector')
                 if k in peer]
    return any(s and (s.get('matchLabels') or s.get('matchExpressions'))
               for s in selectors)

def check_metrics_restricted(directory, d):
    """The unauthenticated metrics port is bound to loopback, or a
    NetworkPolicy of the same kustomization admits it only from selected
    pods (and still lets gRPC in)."""
    path = directory + '/deployment.yaml'
    c = d['spec']['template']['spec']['containers'][0]
    host, port = flag(c['args'], '--metrics-listen').rsplit(':', 1)
    if host in ('127.0.0.1', 'localhost', '[::1]'):
        return
    kustomization = docs[directory + '/kustomization.yaml'][0]
    labels = d['spec']['template']['metadata']['labels']
    policies = [doc for r in kustomization['resources']
                for doc in docs.get(directory + '/' + r, [])
                if doc.get('kind') == 'NetworkPolicy']
    selecting = [p for p in policies
                 if all(labels.get(k) == v for k, v in
                        p['spec']['podSelector'].get('matchLabels', {}).items())
                 and 'Ingress' in p['spec'].get('policyTypes', ['Ingress'])]
    check(selecting, path + ': metrics on ' + host +
          ' and no NetworkPolicy in the kustomization restricts ingress')
    rules = [r for p in selecting for r in (p['spec'].get('ingress') or [])]
    metrics_rules = [r for r in rules if admits(r, 'metrics', int(port))]
    check(all(r.get('from') and all(restricted(peer) for peer in r['from'])
              for r in metrics_rules),
          path + ': a NetworkPolicy admits any pod to the metrics port')
    check(metrics_rules, path + ': no NetworkPolicy rule lets Prometheus in')
    check(any(admits(r, 'grpc', 50051) for r in rules),
          path + ': the NetworkPolicy shuts out gRPC')

check_metrics_restricted('deploy/k8s', d)
check_metrics_restricted('deploy/k8s/embedded', e)

# HTTP (docs/http.md) only where configured: nowhere in the base files;
# deploy/compose.http.yaml adds --http-listen to exactly the base command,
# exposes it and has nginx serve it; deploy/k8s/http patches the base.
for path, listing in docs.items():
    if path in ('deploy/compose.http.yaml', 'deploy/k8s/http/kustomization.yaml'):
        continue
    check('--http-listen' not in repr(listing) and '8443' not in repr(listing),
          path + ': serves HTTP without being asked to')
http = docs['deploy/compose.http.yaml'][0]['services']
for name in replicas:
    base_command = services[name]['command']
    check(http[name]['command'] == base_command + ['--http-listen', '0.0.0.0:8443'],
          'compose.http.yaml: ' + name + ' runs the base command plus --http-listen')
    check('8443' in [str(p) for p in http[name]['expose']],
          'compose.http.yaml: ' + name + ' exposes 8443')
    check('ports' not in http[name], 'compose.http.yaml: ' + name + ' publishes a port')
check(http['nginx']['environment']['DPQ_HTTP_UPSTREAMS'].split() ==
      ['dpq-1:8443', 'dpq-2:8443'], 'compose.http.yaml: nginx HTTP upstreams')
check('8443:8443' in http['nginx']['ports'], 'compose.http.yaml: nginx publishes 8443')
overlay = docs['deploy/k8s/http/kustomization.yaml'][0]
check(overlay['resources'] == ['../'], 'k8s/http builds on deploy/k8s')
patched = {p['target']['kind']: yaml.safe_load(p['patch']) for p in overlay['patches']}
args = [op['value'] for op in patched['Deployment']
        if op['path'].endswith('/args/-')]
check(args == ['--http-listen', '0.0.0.0:8443'], 'k8s/http: --http-listen %s' % args)
check(any(op['value'].get('port') == 8443 for op in patched['Service']),
      'k8s/http: the Service port 8443')
check(any(op['value'].get('port') == 'https' for op in patched['NetworkPolicy']),
      'k8s/http: the NetworkPolicy admits https')
if errors:
    print('\n'.join(errors))
    sys.exit(1)
print('checked %d YAML files' % len(docs))
)py";

TEST(DeployManifestsTest, YamlParsesAndSaysTheSame) {
  constexpr char kPython[] = "/usr/bin/python3";
  const CommandResult has_yaml = RunCommand({kPython, "-c", "import yaml"});
  // deploy/install-deps.sh installs it: a missing parser fails, not skips.
  ASSERT_EQ(has_yaml.exit_code, 0)
      << "no YAML parser: run deploy/install-deps.sh (python3-yaml)";
  const CommandResult r =
      RunCommand({kPython, "-c", kCheckManifests, kSourceDir});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("checked"));
}

}  // namespace
}  // namespace dpq::integration
