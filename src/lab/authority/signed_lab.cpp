// Starting E14's signed three-tier lab; signing and publishing its root and parent zones.
#include "lab/authority/signed_lab.h"

#include <filesystem>

#include <fmt/format.h>

#include "lab/authority/delegation_lab.h"

namespace cutover::lab {
namespace {

// TTLs of the lab's own infrastructure: long, so only the child's and the DS's clocks move.
constexpr std::uint32_t kInfrastructureTtl = 86400;
constexpr std::uint32_t kDelegationNsTtl = 3600;
constexpr std::uint32_t kParentNegativeTtl = 5;

}  // namespace

base::Result<std::unique_ptr<SignedDelegationLab>> SignedDelegationLab::start(const std::string& cutover_binary,
                                                                              const std::string& work_dir) {
  if (!ZoneSigner::available()) {
    return base::make_error(base::ErrorCode::kNotFound,
                            "dnssec-keygen, dnssec-signzone and dnssec-dsfromkey (bind9-utils) are needed");
  }
  std::string key_dir = work_dir + "/e14-keys";
  std::error_code error;
  std::filesystem::create_directories(key_dir, error);
  if (error) return base::make_error(base::ErrorCode::kIo, "cannot create " + key_dir + ": " + error.message());
  auto authorities = start_port53_authorities(cutover_binary, work_dir, {"e14-root", "e14-parent", "e14-child"});
  if (!authorities) return authorities.error();
  std::unique_ptr<SignedDelegationLab> lab(new SignedDelegationLab());
  lab->signer_ = std::make_unique<ZoneSigner>(key_dir);
  lab->root_ = std::move((*authorities)[0]);
  lab->parent_ = std::move((*authorities)[1]);
  lab->child_ = std::move((*authorities)[2]);
  auto root_key = lab->signer_->make_key(".", kInfrastructureTtl);
  if (!root_key) return root_key.error();
  lab->root_key_ = *root_key;
  auto parent_key = lab->signer_->make_key(kParent, kInfrastructureTtl);
  if (!parent_key) return parent_key.error();
  lab->parent_key_ = *parent_key;
  if (auto root = lab->publish_root(); !root) return root.error();
  std::lock_guard lock(lab->mutex_);
  if (auto parent = lab->publish_parent_locked(); !parent) return parent.error();
  return lab;
}

base::Status SignedDelegationLab::publish_root() {
  std::string text = fmt::format(
      "$TTL {0}\n. SOA {1} hostmaster.root-servers.lab. 1 1800 900 604800 60\n. NS {1}\n{1} A {2}\n"
      "{3} NS ns.{3}\nns.{3} A {4}\n{3} DS {5}\n",
      kInfrastructureTtl, kRootServer, root_->host(), kParent, parent_->host(), parent_key_.ds);
  auto signed_text = signer_->sign(".", text, {root_key_});
  if (!signed_text) return signed_text.error();
  auto published = root_->put_zone_file(".", *signed_text);
  if (!published) return published.error();
  return {};
}

base::Result<std::int64_t> SignedDelegationLab::publish_parent_locked() {
  std::string text = fmt::format("$TTL {0}\n{1} SOA ns.{1} hostmaster.{1} {2} 1800 900 604800 {3}\n{1} NS ns.{1}\nns.{1} A {4}\n",
                                 kInfrastructureTtl, kParent, ++parent_serial_, kParentNegativeTtl, parent_->host());
  for (const auto& [child, delegation] : delegations_) {
    text += fmt::format("{0} {1} NS ns.{0}\nns.{0} {1} A {2}\n", child, kDelegationNsTtl, child_->host());
    for (const auto& ds : delegation.ds) text += fmt::format("{} {} DS {}\n", child, delegation.ds_ttl, ds);
  }
  auto signed_text = signer_->sign(kParent, text, {parent_key_});
  if (!signed_text) return signed_text.error();
  return parent_->put_zone_file(kParent, *signed_text);
}

base::Result<std::int64_t> SignedDelegationLab::serve_child(const std::string& child, const std::string& text,
                                                            const std::vector<LabKey>& keys) {
  if (keys.empty()) return child_->put_zone_file(child, text);
  auto signed_text = signer_->sign(child, text, keys);
  if (!signed_text) return signed_text.error();
  return child_->put_zone_file(child, *signed_text);
}

base::Result<std::int64_t> SignedDelegationLab::delegate(const std::string& child, const std::vector<std::string>& ds,
                                                         std::uint32_t ds_ttl) {
  std::lock_guard lock(mutex_);
  delegations_[child] = {ds, ds_ttl};
  return publish_parent_locked();
}

std::string SignedDelegationLab::describe() const {
  return fmt::format("signed three-tier lab: root {}:53, parent {} {}:53, children {}:53; trust anchor . DS {}",
                     root_address(), kParent, parent_->host(), child_address(), root_key_.ds);
}

const FixtureKind& signed_delegation_fixture() {
  static const FixtureKind kKind{"signed three-tier lab", [](const FixtureSetup& setup) {
                                   return as_fixture(SignedDelegationLab::start(setup.cutover_binary, setup.work_dir));
                                 }};
  return kKind;
}

}  // namespace cutover::lab
