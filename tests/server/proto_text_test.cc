#include "server/proto_text.h"

#include <string>

#include "dpq/v1/dataset.pb.h"
#include "gtest/gtest.h"

namespace dpq::server {
namespace {

v1::DatasetInfo CleanInfo() {
  v1::DatasetInfo info;
  info.set_dataset_id("hospital");
  info.set_description("M\xC3\xBCnchen clinics, \xE2\x82\xAC prices");
  info.add_columns()->set_name("City");
  v1::CubeDimensionInfo* dim = info.add_cube_dimensions();
  dim->set_column("City");
  dim->add_labels("Z\xC3\xBCrich");
  dim->add_labels("other");
  return info;
}

TEST(FindUnprintableTextTest, CleanMessagePasses) {
  EXPECT_EQ(FindUnprintableText(CleanInfo()), std::nullopt);
  EXPECT_FALSE(HasInvalidUtf8(CleanInfo()));
}

TEST(FindUnprintableTextTest, NamesTheNestedRepeatedField) {
  v1::DatasetInfo info = CleanInfo();
  info.mutable_cube_dimensions(0)->add_labels("\xff\xfe");
  const auto bad = FindUnprintableText(info);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->path, "cube_dimensions[0].labels[2]");
  EXPECT_EQ(bad->problem, "character 1 is not valid UTF-8");
  EXPECT_TRUE(HasInvalidUtf8(info));
}

TEST(FindUnprintableTextTest, FindsControlCharactersInTheDescription) {
  v1::DatasetInfo info = CleanInfo();
  info.set_description("fine\n\x1b[2Jfake row");
  const auto bad = FindUnprintableText(info);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->path, "description");
  EXPECT_EQ(bad->problem, "character 5 is the control character U+000A");
  // Control characters are valid UTF-8: nothing to repair.
  EXPECT_FALSE(HasInvalidUtf8(info));
}

TEST(RepairInvalidUtf8Test, RepairsEveryBadFieldAndKeepsTheRest) {
  v1::DatasetInfo info = CleanInfo();
  info.set_description("caf\xE9");
  info.mutable_columns(0)->set_name("\xff");
  info.mutable_cube_dimensions(0)->set_labels(1, "a\x80z");
  EXPECT_EQ(RepairInvalidUtf8(&info), 3);
  EXPECT_EQ(info.description(), "caf\xEF\xBF\xBD");
  EXPECT_EQ(info.columns(0).name(), "\xEF\xBF\xBD");
  EXPECT_EQ(info.cube_dimensions(0).labels(0), "Z\xC3\xBCrich");
  EXPECT_EQ(info.cube_dimensions(0).labels(1), "a\xEF\xBF\xBDz");
  EXPECT_FALSE(HasInvalidUtf8(info));
  // A repaired message serialises and parses back (proto3 strings).
  std::string wire;
  ASSERT_TRUE(info.SerializeToString(&wire));
  v1::DatasetInfo back;
  EXPECT_TRUE(back.ParseFromString(wire));
  EXPECT_EQ(RepairInvalidUtf8(&info), 0);
}

}  // namespace
}  // namespace dpq::server
