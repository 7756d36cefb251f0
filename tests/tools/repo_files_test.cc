// Checks on files no compiler reads: the Dockerfile, README and CI script
// must stay consistent with the tree (no Docker engine runs here, so this is
// how the image recipe is kept honest).
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq {
namespace {

const std::filesystem::path kRoot = DPQ_SOURCE_DIR;

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool IsExecutable(const std::filesystem::path& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && (st.st_mode & S_IXUSR);
}

std::vector<std::string> Lines(const std::string& text) {
  return absl::StrSplit(text, '\n');
}

TEST(DockerfileTest, EverySourceItCopiesExists) {
  const std::string dockerfile = ReadFile(kRoot / "Dockerfile");
  ASSERT_FALSE(dockerfile.empty());
  int copies = 0;
  for (absl::string_view line : Lines(dockerfile)) {
    if (!absl::ConsumePrefix(&line, "COPY ")) continue;
    if (absl::StartsWith(line, "--from=")) continue;  // from another stage
    std::vector<std::string> words =
        absl::StrSplit(line, ' ', absl::SkipWhitespace());
    ASSERT_GE(words.size(), 2u) << line;
    for (size_t i = 0; i + 1 < words.size(); ++i) {
      EXPECT_TRUE(std::filesystem::exists(kRoot / words[i]))
          << "Dockerfile copies missing " << words[i];
      ++copies;
    }
  }
  EXPECT_GE(copies, 5);
}

TEST(DockerfileTest, InstallsDependenciesWithTheScriptCiRuns) {
  const std::string dockerfile = ReadFile(kRoot / "Dockerfile");
  const std::string ci = ReadFile(kRoot / ".ci/run");
  EXPECT_THAT(dockerfile, ::testing::HasSubstr("RUN /src/deploy/install-deps.sh"));
  EXPECT_THAT(ci, ::testing::HasSubstr("./deploy/install-deps.sh"));
  EXPECT_THAT(dockerfile, ::testing::HasSubstr("USER 65532:65532"));
}

// The README's two set-up commands are the lines starting with "./deploy/".
TEST(ReadmeTest, TwoSetupCommandsWhoseScriptsExistAndCiRunsTheTestOne) {
  const std::string readme = ReadFile(kRoot / "README.md");
  std::vector<std::string> commands;
  for (absl::string_view line : Lines(readme)) {
    if (absl::StartsWith(line, "./deploy/install-deps.sh && ")) {
      commands.emplace_back(line);
    }
  }
  ASSERT_EQ(commands.size(), 2u);
  for (const std::string& command : commands) {
    for (absl::string_view part : absl::StrSplit(command, " && ")) {
      const std::string script(absl::StripAsciiWhitespace(part));
      EXPECT_TRUE(IsExecutable(kRoot / script)) << script;
    }
  }
  EXPECT_THAT(ReadFile(kRoot / ".ci/run"), ::testing::HasSubstr(commands[1]));
}

}  // namespace
}  // namespace dpq
