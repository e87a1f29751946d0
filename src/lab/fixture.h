// Fixture: a lab server that some experiments need besides the lab authority (the three-tier
// delegation lab, the failover pool server). An experiment names the FixtureKinds it needs; the
// runner starts each kind once for all chosen experiments and hands the started fixtures to
// every case through LabEnv. A Fixture's own methods say whether they are thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"

namespace cutover::lab {

class Fixture {
 public:
  virtual ~Fixture() = default;
  // One progress line (without the newline) saying where the started fixture listens.
  virtual std::string describe() const = 0;
};

// What a fixture may need to start: the binary it runs, a directory for its files and logs,
// and the tags of every resolver of the run (one pool per resolver, for example).
struct FixtureSetup {
  std::string cutover_binary;
  std::string work_dir;
  std::vector<std::string> resolver_tags;
};

// One kind of fixture, defined once beside its class (delegation_fixture(), failover_fixture()).
struct FixtureKind {
  std::string title;  // in progress lines, e.g. "three-tier lab"
  std::function<base::Result<std::unique_ptr<Fixture>>(const FixtureSetup&)> start;
};

// A started fixture of type T as a Fixture, or its start error.
template <typename T>
base::Result<std::unique_ptr<Fixture>> as_fixture(base::Result<std::unique_ptr<T>> started) {
  if (!started) return started.error();
  return std::unique_ptr<Fixture>(std::move(*started));
}

}  // namespace cutover::lab
