// dpq-server --backup DIR against a running embedded server, and a restore
// from it (docs/operations.md, "Backup and restore: embedded mode"): the
// snapshot holds the datasets, accounts, ledger and admin token with files
// 0600 in a 0700 directory; a server started on it answers as at the
// backup (a request answered before it replays for free), and forgets what
// came after (the documented older-ledger caveat).
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "tests/integration/harness.h"

namespace dpq::integration {
namespace {

using ::testing::HasSubstr;

int ModeOf(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return -1;
  return static_cast<int>(st.st_mode & 0777);
}

class BackupTest : public ServerFixture {};

TEST_F(BackupTest, SnapshotWhileServingAndRestore) {
  ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
  const std::string token = NewBuyer("alice", "hospital", 3);
  ASSERT_FALSE(token.empty());
  v1::MeasureInconsistencyResponse before;
  ASSERT_THAT(client_->Measure(token, "hospital", v1::MEASURE_MI, 1,
                               "before-backup", &before),
              GrpcOk());

  const std::string backup = dir_.Sub("backup");
  CommandResult r =
      RunCommand({kServerBinary, "--backup", backup, "--data-dir", data_dir()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("1 dataset, accounts, ledger"));
  EXPECT_EQ(ModeOf(backup), 0700);
  for (const char* file :
       {"ledger.db", "accounts.db", "admin.token", "BACKUP.txt",
        "datasets/hospital/data.csv", "datasets/hospital/manifest.json",
        "datasets/hospital/state.txt"}) {
    EXPECT_EQ(ModeOf(absl::StrCat(backup, "/", file)), 0600) << file;
  }
  EXPECT_THAT(ReadFileOrEmpty(backup + "/BACKUP.txt"),
              HasSubstr("What a restore to an older point means"));
  // Never over an existing directory.
  r = RunCommand({kServerBinary, "--backup", backup, "--data-dir", data_dir()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("exists"));

  // After the backup: another charge, which the restore forgets.
  v1::MeasureInconsistencyResponse after;
  ASSERT_THAT(client_->Measure(token, "hospital", v1::MEASURE_MI, 1,
                               "after-backup", &after),
              GrpcOk());
  ASSERT_EQ(StopServer(), 0) << server_->Log();
  std::filesystem::rename(data_dir(), dir_.Sub("data-old"));
  r = RunCommand({"/bin/cp", "-a", backup, data_dir()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_NO_FATAL_FAILURE(StartServer());

  // The buyer, its token and its budget as at the backup.
  absl::StatusOr<v1::Budget> budget = client_->Budget(token, "hospital");
  ASSERT_TRUE(budget.ok()) << budget.status();
  EXPECT_DOUBLE_EQ(budget->spent(), 1);
  // The request answered before the backup replays its answer for free.
  v1::MeasureInconsistencyResponse replay;
  ASSERT_THAT(client_->Measure(token, "hospital", v1::MEASURE_MI, 1,
                               "before-backup", &replay),
              GrpcOk());
  EXPECT_TRUE(replay.replayed());
  EXPECT_EQ(replay.result().value(), before.result().value());
  EXPECT_DOUBLE_EQ(replay.epsilon_charged(), 0);
}

TEST_F(BackupTest, RefusesWhatIsNotAnEmbeddedDataDirectory) {
  CommandResult r = RunCommand({kServerBinary, "--backup", dir_.Sub("b"),
                                "--data-dir", dir_.Sub("nothing")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("holds no ledger.db"));
  r = RunCommand({kServerBinary, "--backup", dir_.Sub("b")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("needs --data-dir"));
}

}  // namespace
}  // namespace dpq::integration
