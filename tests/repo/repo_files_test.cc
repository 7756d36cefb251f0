// Checks on files no compiler reads: the Dockerfile, README, CI script and
// deployment manifests must stay consistent with the tree (the image itself
// is built and run by deploy/check-image.sh, too long for every test run);
// and the sources' comments and messages cite only documents in the
// repository.
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/files.h"

namespace dpq {
namespace {

using ::dpq::testing::ReadFileOrEmpty;
using ::testing::HasSubstr;
using ::testing::Not;

const std::filesystem::path kRoot = DPQ_SOURCE_DIR;

bool IsExecutable(const std::filesystem::path& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && (st.st_mode & S_IXUSR);
}

std::vector<std::string> Lines(const std::string& text) {
  return absl::StrSplit(text, '\n');
}

// One Dockerfile instruction: "RUN", "a && b" (continuation lines joined).
struct Instruction {
  std::string keyword;
  std::string args;
};

// A build stage: its FROM arguments and its instructions.
struct Stage {
  std::string name;
  std::string from;
  std::vector<Instruction> instructions;

  std::vector<std::string> All(absl::string_view keyword) const {
    std::vector<std::string> out;
    for (const Instruction& i : instructions) {
      if (i.keyword == keyword) out.push_back(i.args);
    }
    return out;
  }
};

// Parses the Dockerfile into stages (comments dropped, `\` lines joined).
std::vector<Stage> ParseDockerfile(const std::string& text) {
  std::vector<std::string> logical;
  std::string current;
  for (absl::string_view raw : Lines(text)) {
    absl::string_view line = absl::StripAsciiWhitespace(raw);
    if (current.empty() && (line.empty() || absl::StartsWith(line, "#"))) {
      continue;
    }
    if (absl::StartsWith(line, "#")) continue;  // comment inside a RUN
    const bool continues = absl::ConsumeSuffix(&line, "\\");
    current.append(line.data(), line.size());
    current += ' ';
    if (!continues) {
      logical.push_back(std::string(absl::StripAsciiWhitespace(current)));
      current.clear();
    }
  }
  std::vector<Stage> stages;
  for (const std::string& l : logical) {
    std::vector<std::string> kw =
        absl::StrSplit(l, absl::MaxSplits(' ', 1), absl::SkipEmpty());
    Instruction ins{absl::AsciiStrToUpper(kw[0]),
                    kw.size() > 1 ? kw[1] : std::string()};
    if (ins.keyword == "FROM") {
      Stage s;
      std::vector<std::string> words =
          absl::StrSplit(ins.args, ' ', absl::SkipEmpty());
      s.from = words.empty() ? "" : words[0];
      if (words.size() == 3 && absl::AsciiStrToUpper(words[1]) == "AS") {
        s.name = words[2];
      }
      stages.push_back(std::move(s));
      continue;
    }
    if (!stages.empty()) stages.back().instructions.push_back(ins);
  }
  return stages;
}

const Stage* FindStage(const std::vector<Stage>& stages,
                       absl::string_view name) {
  for (const Stage& s : stages) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

class DockerfileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    text_ = ReadFileOrEmpty(kRoot / "Dockerfile");
    ASSERT_FALSE(text_.empty());
    stages_ = ParseDockerfile(text_);
    ASSERT_EQ(stages_.size(), 3u) << "expected deps -> build -> runtime";
    deps_ = FindStage(stages_, "deps");
    build_ = FindStage(stages_, "build");
    runtime_ = FindStage(stages_, "runtime");
    ASSERT_NE(deps_, nullptr);
    ASSERT_NE(build_, nullptr);
    ASSERT_NE(runtime_, nullptr);
  }

  std::string text_;
  std::vector<Stage> stages_;
  const Stage* deps_ = nullptr;
  const Stage* build_ = nullptr;
  const Stage* runtime_ = nullptr;
};

TEST_F(DockerfileTest, EverySourceItCopiesExists) {
  int copies = 0;
  for (const Stage& stage : stages_) {
    for (const std::string& args : stage.All("COPY")) {
      if (absl::StartsWith(args, "--from=")) continue;  // another stage
      std::vector<std::string> words =
          absl::StrSplit(args, ' ', absl::SkipWhitespace());
      ASSERT_GE(words.size(), 2u) << args;
      for (size_t i = 0; i + 1 < words.size(); ++i) {
        EXPECT_TRUE(std::filesystem::exists(kRoot / words[i]))
            << "Dockerfile copies missing " << words[i];
        ++copies;
      }
    }
  }
  EXPECT_GE(copies, 9);
}

TEST_F(DockerfileTest, BuildsOnBookwormWithTheScriptCiRuns) {
  EXPECT_EQ(deps_->from, "debian:bookworm");
  EXPECT_EQ(build_->from, "deps") << "the build stage must reuse deps";
  EXPECT_THAT(text_, HasSubstr("RUN /src/deploy/install-deps.sh"));
  bool runs_script = false;
  for (const std::string& run : deps_->All("RUN")) {
    runs_script |= absl::StartsWith(run, "/src/deploy/install-deps.sh");
  }
  EXPECT_TRUE(runs_script);
  // CI installs its packages with the very same script.
  EXPECT_THAT(ReadFileOrEmpty(kRoot / ".ci/run"),
              HasSubstr("./deploy/install-deps.sh"));
  EXPECT_TRUE(IsExecutable(kRoot / "deploy/install-deps.sh"));
}

TEST_F(DockerfileTest, BuildStageCopiesEverySourceFolderAndRunsFastTests) {
  std::set<std::string> copied;
  for (const std::string& args : build_->All("COPY")) {
    std::vector<std::string> words =
        absl::StrSplit(args, ' ', absl::SkipWhitespace());
    for (size_t i = 0; i + 1 < words.size(); ++i) copied.insert(words[i]);
  }
  // Every folder the top-level CMakeLists.txt adds must be in the image.
  const std::string cmake = ReadFileOrEmpty(kRoot / "CMakeLists.txt");
  for (absl::string_view line : Lines(cmake)) {
    line = absl::StripAsciiWhitespace(line);
    if (!absl::ConsumePrefix(&line, "add_subdirectory(")) continue;
    const std::string dir(line.substr(0, line.find(')')));
    EXPECT_TRUE(copied.count(dir)) << "build stage does not copy " << dir;
  }
  EXPECT_TRUE(copied.count("CMakeLists.txt"));
  // Build, then the fast suite, then strip: one RUN for each of the first
  // two (so that test-only edits reuse the build layer).
  const std::vector<std::string> runs = build_->All("RUN");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_THAT(runs[0], HasSubstr("-DCMAKE_BUILD_TYPE=Release"));
  EXPECT_THAT(runs[0], HasSubstr("cmake --build build"));
  EXPECT_THAT(runs[1], HasSubstr("ctest --test-dir build"));
  // Without the statistical tests, those that read ../shared/data, which
  // is outside the build context, and those that start PostgreSQL and
  // nginx servers (CI runs them all).
  EXPECT_THAT(
      runs[1],
      HasSubstr("-LE \"statistical|shared-data|postgresql|nginx|browser\""));
  const size_t strip = runs[1].find("strip ");
  ASSERT_NE(strip, std::string::npos);
  std::set<std::string> stripped;
  for (absl::string_view word :
       absl::StrSplit(absl::string_view(runs[1]).substr(strip + 6), ' ',
                      absl::SkipWhitespace())) {
    if (word == "&&") break;
    stripped.insert(std::string(word));
  }
  EXPECT_EQ(stripped,
            (std::set<std::string>{"build/bin/dpq-server", "build/bin/dpq",
                                   "build/bin/dpq-measure"}));
  // This test runs inside the build stage too: the files it reads are there.
  for (const char* file : {"README.md", "Dockerfile", ".ci", "docs"}) {
    EXPECT_TRUE(copied.count(file)) << "build stage does not copy " << file;
  }
}

TEST_F(DockerfileTest, RuntimeIsSlimAndGetsTheThreeBinariesOnly) {
  EXPECT_EQ(runtime_->from, "debian:bookworm-slim");
  const std::vector<std::string> runs = runtime_->All("RUN");
  ASSERT_FALSE(runs.empty());
  EXPECT_THAT(runs[0], HasSubstr("install-deps.sh --runtime"));
  std::set<std::string> binaries;
  for (const std::string& args : runtime_->All("COPY")) {
    absl::string_view a = args;
    if (!absl::ConsumePrefix(&a, "--from=build ")) continue;
    std::vector<std::string> words =
        absl::StrSplit(a, ' ', absl::SkipWhitespace());
    ASSERT_EQ(words.size(), 2u) << args;
    EXPECT_TRUE(absl::StartsWith(words[0], "/src/build/bin/")) << args;
    EXPECT_TRUE(absl::StartsWith(words[1], "/usr/local/bin/")) << args;
    binaries.insert(std::filesystem::path(words[1]).filename().string());
  }
  EXPECT_EQ(binaries,
            (std::set<std::string>{"dpq-server", "dpq", "dpq-measure"}));
}

TEST_F(DockerfileTest, RunsAsNonRootUser) {
  const std::vector<std::string> users = runtime_->All("USER");
  ASSERT_EQ(users.size(), 1u);
  EXPECT_EQ(users[0], "65532:65532");
  for (absl::string_view part : absl::StrSplit(users[0], ':')) {
    EXPECT_NE(part, "0");
    EXPECT_NE(part, "root");
  }
  // The USER line comes after every RUN (nothing runs as root afterwards
  // except what was installed before).
  bool seen_user = false;
  for (const Instruction& i : runtime_->instructions) {
    if (i.keyword == "USER") seen_user = true;
    if (seen_user) {
      EXPECT_NE(i.keyword, "RUN") << i.args;
    }
  }
}

TEST_F(DockerfileTest, ServesTheDataVolumeOnThePortWithAHealthCheck) {
  EXPECT_THAT(runtime_->All("VOLUME"), ::testing::ElementsAre("[\"/data\"]"));
  // gRPC, and the metrics of --metrics-listen 0.0.0.0:9464 (deploy/).
  EXPECT_THAT(runtime_->All("EXPOSE"), ::testing::ElementsAre("50051", "9464"));
  const std::vector<std::string> checks = runtime_->All("HEALTHCHECK");
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_THAT(checks[0],
              HasSubstr("CMD [\"dpq\",\"health\",\"--server\","
                        "\"localhost:50051\",\"--ca\",\"/etc/dpq/ca.pem\"]"));
  const std::vector<std::string> entry = runtime_->All("ENTRYPOINT");
  ASSERT_EQ(entry.size(), 1u);
  EXPECT_EQ(entry[0], "[\"dpq-server\"]") << "exec form";
  const std::vector<std::string> cmd = runtime_->All("CMD");
  ASSERT_EQ(cmd.size(), 1u);
  EXPECT_THAT(cmd[0], HasSubstr("\"--data-dir\",\"/data\""));
  EXPECT_THAT(cmd[0], HasSubstr("\"--listen\",\"0.0.0.0:50051\""));
  EXPECT_THAT(cmd[0], HasSubstr("\"--tls-cert\",\"/etc/dpq/server.pem\""));
  EXPECT_THAT(cmd[0], Not(HasSubstr("--insecure")));
}

TEST_F(DockerfileTest, NeverBakesInKeysOrCertificates) {
  for (const Stage& stage : stages_) {
    for (const std::string& args : stage.All("COPY")) {
      EXPECT_THAT(args, Not(HasSubstr(".pem"))) << args;
      EXPECT_THAT(args, Not(HasSubstr(".key"))) << args;
      EXPECT_THAT(args, Not(HasSubstr("certs"))) << args;
    }
  }
  // Nor do dev certificates or build trees reach the build context.
  const std::string ignore = ReadFileOrEmpty(kRoot / ".dockerignore");
  for (const char* pattern :
       {"build*/", "deploy/certs/", "deploy/secrets/", "deploy/k8s/certs/",
        "deploy/k8s/secrets/", "deploy/k8s/embedded/certs/"}) {
    EXPECT_THAT(ignore, HasSubstr(pattern));
  }
}

// The README's two set-up commands are the lines starting with "./deploy/".
TEST(ReadmeTest, TwoSetupCommandsWhoseScriptsExistAndCiRunsTheTestOne) {
  const std::string readme = ReadFileOrEmpty(kRoot / "README.md");
  std::vector<std::string> commands;
  for (absl::string_view line : Lines(readme)) {
    if (absl::StartsWith(line, "./deploy/install-deps.sh && ")) {
      commands.emplace_back(line);
    }
  }
  ASSERT_EQ(commands.size(), 2u);
  EXPECT_EQ(commands[0],
            "./deploy/install-deps.sh && ./deploy/demo/run-demo.sh");
  EXPECT_EQ(commands[1], "./deploy/install-deps.sh && ./tests/run-tests.sh");
  for (const std::string& command : commands) {
    for (absl::string_view part : absl::StrSplit(command, " && ")) {
      const std::string script(absl::StripAsciiWhitespace(part));
      EXPECT_TRUE(IsExecutable(kRoot / script)) << script;
    }
  }
  EXPECT_THAT(ReadFileOrEmpty(kRoot / ".ci/run"), HasSubstr(commands[1]));
}

TEST(DeployFilesTest, ScriptsAreExecutable) {
  for (const char* script :
       {"deploy/install-deps.sh", "deploy/make-certs.sh",
        "deploy/make-secrets.sh", "deploy/demo/run-demo.sh",
        "deploy/check-image.sh", "deploy/nginx/render-conf.sh",
        "deploy/nginx/reload.sh"}) {
    EXPECT_TRUE(IsExecutable(kRoot / script)) << script;
  }
}

// The config example uses only the keys the server documents, each once
// (ConfigTest.OperationsDocAndExampleListEveryKey checks them against the
// server).
TEST(DeployFilesTest, ConfigExampleHasKnownKeysOnly) {
  const std::set<std::string> known = {"listen",
                                       "data_dir",
                                       "tls_cert",
                                       "tls_key",
                                       "client_ca",
                                       "insecure",
                                       "max_message_bytes",
                                       "max_upload_bytes",
                                       "max_rows",
                                       "max_edges",
                                       "graph_threads",
                                       "drain_seconds",
                                       "graph_build_workers",
                                       "exact_repair_seconds",
                                       "max_heavy_jobs",
                                       "import_dir",
                                       "max_heavy_jobs_per_buyer",
                                       "max_heavy_releases"};
  const std::string text =
      ReadFileOrEmpty(kRoot / "deploy/dpq-server.conf.example");
  ASSERT_FALSE(text.empty());
  std::map<std::string, int> seen;
  for (absl::string_view line : Lines(text)) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || absl::StartsWith(line, "#")) continue;
    std::vector<std::string> kv = absl::StrSplit(line, absl::MaxSplits('=', 1));
    ASSERT_EQ(kv.size(), 2u) << "not `key = value`: " << line;
    const std::string key(absl::StripAsciiWhitespace(kv[0]));
    EXPECT_TRUE(known.count(key)) << "unknown key " << key;
    ++seen[key];
  }
  for (const auto& [key, n] : seen) EXPECT_EQ(n, 1) << key;
  EXPECT_TRUE(seen.count("listen"));
  EXPECT_TRUE(seen.count("data_dir"));
  EXPECT_FALSE(seen.count("insecure") && !seen.count("tls_cert"))
      << "the example must show TLS";
}

// Kubernetes and compose probe health the way the image does and mount
// certificates instead of baking them in; both variants of each: replicated
// on PostgreSQL (deploy/compose.yaml, deploy/k8s) and embedded
// (deploy/compose.single.yaml, deploy/k8s/embedded). The replicated files'
// structure is checked in tests/integration/deploy_scripts_test.cc.
TEST(DeployFilesTest, ComposeAndKubernetesUseTheHealthProbeAndMountedCerts) {
  for (const char* file :
       {"deploy/compose.yaml", "deploy/compose.single.yaml"}) {
    const std::string compose = ReadFileOrEmpty(kRoot / file);
    ASSERT_FALSE(compose.empty()) << file;
    EXPECT_THAT(compose, HasSubstr("/etc/dpq")) << file;
    EXPECT_THAT(compose, HasSubstr("/data")) << file;
    EXPECT_THAT(compose, HasSubstr("50051")) << file;
  }
  for (const char* dir : {"deploy/k8s", "deploy/k8s/embedded"}) {
    const std::filesystem::path k8s = kRoot / dir;
    const std::string deployment = ReadFileOrEmpty(k8s / "deployment.yaml");
    ASSERT_FALSE(deployment.empty()) << dir;
    EXPECT_THAT(deployment, HasSubstr("readinessProbe")) << dir;
    EXPECT_THAT(deployment, HasSubstr("livenessProbe")) << dir;
    EXPECT_THAT(deployment, HasSubstr("- health")) << dir;
    EXPECT_THAT(deployment, HasSubstr("runAsNonRoot: true")) << dir;
    EXPECT_THAT(deployment, HasSubstr("/etc/dpq")) << dir;
    for (const char* file : {"service.yaml", "kustomization.yaml"}) {
      EXPECT_FALSE(ReadFileOrEmpty(k8s / file).empty()) << dir << "/" << file;
    }
    // Every resource the kustomization lists exists.
    const std::string kustomization =
        ReadFileOrEmpty(k8s / "kustomization.yaml");
    int resources = 0;
    for (absl::string_view line : Lines(kustomization)) {
      line = absl::StripAsciiWhitespace(line);
      if (!absl::ConsumePrefix(&line, "- ")) continue;
      if (!absl::EndsWith(line, ".yaml")) continue;
      EXPECT_TRUE(std::filesystem::exists(k8s / std::string(line)))
          << dir << "/" << line;
      ++resources;
    }
    EXPECT_GE(resources, 3) << dir;
  }
  EXPECT_FALSE(ReadFileOrEmpty(kRoot / "deploy/k8s/embedded/pvc.yaml").empty());
}

// What a comment or a message may not cite: documents that are not in the
// repository (the former design notes and style guide, a review's issue
// list, the papers' folder next to it). A reader of the code must find every
// rule it cites in docs/*.md, which the comments cite instead. The needles
// are split so that this file does not match itself.
const char* const kOutsideDocuments[] = {
    "design"
    ".md",
    "style"
    ".md",
    "privacy"
    "-holes",
    "shared/"
    "papers"};

// "issue N" or "Issues N and M" with digits: an issue of a tracker the
// repository does not hold. (A word ending in "issue", such as "tissue",
// is not one.)
bool CitesAnIssueNumber(absl::string_view line) {
  const std::string lower = absl::AsciiStrToLower(line);
  for (size_t at = lower.find("issue"); at != std::string::npos;
       at = lower.find("issue", at + 1)) {
    if (at > 0 && absl::ascii_isalpha(lower[at - 1])) continue;
    size_t next = at + 5;
    if (next < lower.size() && lower[next] == 's') ++next;
    if (next + 1 < lower.size() && lower[next] == ' ' &&
        absl::ascii_isdigit(lower[next + 1])) {
      return true;
    }
  }
  return false;
}

bool IsSourceFile(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  return path.filename() == "CMakeLists.txt" || ext == ".cc" || ext == ".h" ||
         ext == ".proto" || ext == ".sh";
}

TEST(SourceFilesTest, CiteOnlyDocumentsInTheRepository) {
  std::vector<std::string> hits;
  int scanned = 0;
  for (const char* folder :
       {"core", "server", "client", "proto", "tests", "deploy"}) {
    ASSERT_TRUE(std::filesystem::is_directory(kRoot / folder)) << folder;
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(kRoot / folder)) {
      if (!entry.is_regular_file() || !IsSourceFile(entry.path())) continue;
      ++scanned;
      const std::string file =
          entry.path().lexically_relative(kRoot).generic_string();
      int number = 0;
      for (absl::string_view line : Lines(ReadFileOrEmpty(entry.path()))) {
        ++number;
        for (const char* needle : kOutsideDocuments) {
          if (!absl::StrContains(line, needle)) continue;
          hits.push_back(absl::StrCat(file, ":", number, ": ", line));
        }
        if (CitesAnIssueNumber(line)) {
          hits.push_back(absl::StrCat(file, ":", number, ": ", line));
        }
      }
    }
  }
  EXPECT_GT(scanned, 300) << "the walk missed the sources";
  EXPECT_TRUE(hits.empty())
      << "cite docs/*.md (or state the reason) instead of a document "
         "outside the repository:\n"
      << absl::StrJoin(hits, "\n");
}

// The bearer token stays in a call's metadata (no AuthMetadataProcessor
// consumes it), so one file reads that metadata, and it never logs or
// returns it (server/auth/bearer_auth.h).
TEST(SourceFilesTest, OnlyTheBearerCheckReadsCallMetadata) {
  const std::string allowed = "server/auth/bearer_auth.cc";
  std::vector<std::string> hits;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(kRoot / "server")) {
    if (!entry.is_regular_file() || !IsSourceFile(entry.path())) continue;
    const std::string file =
        entry.path().lexically_relative(kRoot).generic_string();
    if (file == allowed) continue;
    int number = 0;
    for (absl::string_view line : Lines(ReadFileOrEmpty(entry.path()))) {
      ++number;
      for (const char* needle :
           {"client_metadata", "GetRecvInitialMetadata", "auth_context"}) {
        if (absl::StrContains(line, needle)) {
          hits.push_back(absl::StrCat(file, ":", number, ": ", line));
        }
      }
    }
  }
  EXPECT_THAT(ReadFileOrEmpty(kRoot / allowed), HasSubstr("client_metadata()"));
  EXPECT_TRUE(hits.empty())
      << "only " << allowed << " may read a call's metadata:\n"
      << absl::StrJoin(hits, "\n");
}

TEST(SourceFilesTest, IssueNumbersAreRecognised) {
  // Split literals, so that this file does not match itself.
  EXPECT_TRUE(
      CitesAnIssueNumber("// Issue "
                         "14, item 3: imports"));
  EXPECT_TRUE(
      CitesAnIssueNumber("# kinds (issues "
                         "5 and 6)"));
  EXPECT_FALSE(CitesAnIssueNumber("// a tissue 3 cells thick"));
  EXPECT_FALSE(CitesAnIssueNumber("// the issue is the deadline"));
}

}  // namespace
}  // namespace dpq

namespace dpq {
namespace {

// The web console (server/http/console, docs/http.md "Security") renders
// every server value as text and keeps the token in sessionStorage: no
// file may parse strings as markup or code, carry an inline script, style
// or handler (the Content-Security-Policy forbids them), or store the
// token anywhere that outlives the tab.
TEST(ConsoleFilesTest, NoMarkupFromStringsNoInlineCodeNoLastingToken) {
  int files = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(kRoot / "server/http/console")) {
    const std::string name = entry.path().filename().string();
    const std::string text = ReadFileOrEmpty(entry.path());
    ++files;
    for (const char* banned :
         {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
          "eval(", "new Function", "localStorage", "document.cookie",
          "javascript:", "setAttribute('style'", "setAttribute(\"style\"",
          "srcdoc", "DOMParser", "createContextualFragment"}) {
      EXPECT_THAT(text, Not(HasSubstr(banned))) << name;
    }
    if (absl::EndsWith(name, ".html")) {
      for (const std::string& line : Lines(text)) {
        const std::string lower = absl::AsciiStrToLower(line);
        if (absl::StrContains(lower, "<script")) {
          EXPECT_THAT(lower, HasSubstr(" src=\"/console/")) << line;
        }
        EXPECT_THAT(lower, Not(HasSubstr(" style="))) << line;
        EXPECT_THAT(lower, Not(HasSubstr("<style"))) << line;
        for (const char* handler :
             {" onclick=", " onload=", " onerror=", " onsubmit=", " oninput=",
              " onchange=", " onkeydown="}) {
          EXPECT_THAT(lower, Not(HasSubstr(handler))) << line;
        }
        EXPECT_THAT(lower, Not(HasSubstr("http://"))) << line;
        EXPECT_THAT(lower, Not(HasSubstr("https://"))) << line;
      }
    }
  }
  EXPECT_GE(files, 4);
}

}  // namespace
}  // namespace dpq
