// The file probe against a real file on disk, rewritten between probes.
#include "health/file/file_probe.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

namespace cutover::health {
namespace {

// The real file on disk, rewritten between probes: each change is read at the next probe.
TEST(FileProbe, ReReadsTheFileWhenItChanges) {
  char dir[] = "/tmp/file_probe_test.XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  std::string path = std::string(dir) + "/states";
  ProbeRegistry registry;
  register_builtin_probes(registry);
  auto options = std::make_shared<FileOptions>();
  options->file = path;
  CheckSettings settings;
  settings.type = "file";
  settings.options = options;
  auto probe = registry.create(settings);
  ASSERT_TRUE(probe);
  Target target;
  target.address = "192.0.2.10";
  EXPECT_EQ((*probe)->run(target).outcome, ProbeOutcome::kError);  // no file yet
  auto write = [&](const std::string& text) {
    std::string temporary = path + ".new";
    std::ofstream(temporary) << text;
    ASSERT_EQ(std::rename(temporary.c_str(), path.c_str()), 0);  // a new inode, as a writer should
  };
  write("192.0.2.10 = UP\n");
  EXPECT_EQ((*probe)->run(target).outcome, ProbeOutcome::kPass);
  write("192.0.2.10 = DOWN\n");
  EXPECT_EQ((*probe)->run(target).outcome, ProbeOutcome::kFail);
  write("192.0.2.99 = UP\n");
  ProbeResult missing = (*probe)->run(target);
  EXPECT_EQ(missing.outcome, ProbeOutcome::kError);
  EXPECT_EQ(missing.detail, path + " has no line for 192.0.2.10");
  std::remove(path.c_str());
  ::rmdir(dir);
}

}  // namespace
}  // namespace cutover::health
