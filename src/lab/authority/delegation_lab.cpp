// Starting the three-tier E8 lab and loading its root and parent zones.
#include "lab/authority/delegation_lab.h"

#include <random>

#include <fmt/format.h>

namespace cutover::lab {
namespace {

constexpr int kAttempts = 5;

base::Status load_top(AuthorityProcess& top) {
  for (auto step : {top.put_zone(".", 86400, 60), top.put_rrset(".", "NS", 86400, {DelegationLab::kRootServer}),
                    top.put_rrset(DelegationLab::kRootServer, "A", 86400, {top.host()}),
                    top.put_zone(DelegationLab::kParent, 86400, 60),
                    top.put_rrset(DelegationLab::kParent, "NS", 86400, {std::string("ns.") + DelegationLab::kParent}),
                    top.put_rrset(std::string("ns.") + DelegationLab::kParent, "A", 86400, {top.host()})}) {
    if (!step) return step.error();
  }
  return {};
}

}  // namespace

base::Result<std::unique_ptr<DelegationLab>> DelegationLab::start(const std::string& cutover_binary,
                                                                  const std::string& work_dir) {
  std::mt19937 random{std::random_device{}()};
  std::string last_error;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    std::string prefix = "127.53." + std::to_string(1 + random() % 254) + ".";
    std::unique_ptr<DelegationLab> lab(new DelegationLab());
    std::unique_ptr<AuthorityProcess>* slots[] = {&lab->top_, &lab->old_, &lab->new_};
    const char* labels[] = {"e8-top", "e8-old", "e8-new"};
    bool started = true;
    for (int i = 0; i < 3 && started; ++i) {
      auto authority = AuthorityProcess::start({cutover_binary, prefix + std::to_string(i + 1), 53, work_dir, labels[i]});
      if (!authority) {
        last_error = authority.error().message;
        started = false;
      } else {
        *slots[i] = std::move(*authority);
      }
    }
    if (!started) continue;
    auto loaded = load_top(*lab->top_);
    if (!loaded) return loaded.error();
    return lab;
  }
  return base::make_error(base::ErrorCode::kIo, "three-tier lab did not start: " + last_error);
}

std::string DelegationLab::describe() const {
  return fmt::format("three-tier lab: root and parent {}:53, old child {}:53, new child {}:53", root_address(),
                     old_->host(), new_->host());
}

const FixtureKind& delegation_fixture() {
  static const FixtureKind kKind{"three-tier lab", [](const FixtureSetup& setup) {
                                   return as_fixture(DelegationLab::start(setup.cutover_binary, setup.work_dir));
                                 }};
  return kKind;
}

}  // namespace cutover::lab
