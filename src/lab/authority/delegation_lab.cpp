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

base::Result<std::vector<std::unique_ptr<AuthorityProcess>>> start_port53_authorities(
    const std::string& cutover_binary, const std::string& work_dir, const std::vector<std::string>& labels) {
  std::mt19937 random{std::random_device{}()};
  std::string last_error;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    std::string prefix = "127.53." + std::to_string(1 + random() % 254) + ".";
    std::vector<std::unique_ptr<AuthorityProcess>> started;
    for (std::size_t i = 0; i < labels.size(); ++i) {
      auto authority =
          AuthorityProcess::start({cutover_binary, prefix + std::to_string(i + 1), 53, work_dir, labels[i]});
      if (!authority) {
        last_error = authority.error().message;
        break;
      }
      started.push_back(std::move(*authority));
    }
    if (started.size() == labels.size()) return started;
  }
  return base::make_error(base::ErrorCode::kIo, "lab authorities on port 53 did not start: " + last_error);
}

base::Result<std::unique_ptr<DelegationLab>> DelegationLab::start(const std::string& cutover_binary,
                                                                  const std::string& work_dir) {
  auto authorities = start_port53_authorities(cutover_binary, work_dir, {"e8-top", "e8-old", "e8-new"});
  if (!authorities) return authorities.error();
  std::unique_ptr<DelegationLab> lab(new DelegationLab());
  lab->top_ = std::move((*authorities)[0]);
  lab->old_ = std::move((*authorities)[1]);
  lab->new_ = std::move((*authorities)[2]);
  auto loaded = load_top(*lab->top_);
  if (!loaded) return loaded.error();
  return lab;
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
