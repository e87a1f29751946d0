// SignedDelegationLab: E14's signed three-tier world (docs/lab.md, E14). Three lab authorities
// on port 53 of 127.53.N.1, .2 and .3 serve the root ".", the parent "e14." and the child
// zones below it; every zone is signed offline by ZoneSigner and served exactly as signed
// (PUT /lab/zone-files). The root's and the parent's keys are made at start; the DS of the
// root's key is the trust anchor each validating resolver gets. The parent zone is signed and
// published again whenever a delegation changes. Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/result.h"
#include "lab/authority/authority_process.h"
#include "lab/authority/zone_signer.h"
#include "lab/fixture.h"

namespace cutover::lab {

class SignedDelegationLab : public Fixture {
 public:
  static constexpr const char* kParent = "e14.";
  static constexpr const char* kRootServer = "a.root-servers.lab.";

  static base::Result<std::unique_ptr<SignedDelegationLab>> start(const std::string& cutover_binary,
                                                                  const std::string& work_dir);

  const std::string& root_address() const { return root_->host(); }
  const std::string& child_address() const { return child_->host(); }
  // The root key's DS rdata ("TAG 13 2 HEX"): the resolvers' only trust anchor.
  const std::string& trust_anchor() const { return root_key_.ds; }
  ZoneSigner& signer() { return *signer_; }

  // Serves the child zone `child` from master-file `text`, signed with `keys` (none: unsigned).
  base::Result<std::int64_t> serve_child(const std::string& child, const std::string& text,
                                         const std::vector<LabKey>& keys);
  // The parent delegates `child` to the child server (NS and glue), with these DS rdatas at
  // TTL `ds_ttl` (none: an insecure delegation, proved by the parent's NSEC); signed again
  // and published. Returns when the parent serves it.
  base::Result<std::int64_t> delegate(const std::string& child, const std::vector<std::string>& ds,
                                      std::uint32_t ds_ttl);

  std::string describe() const override;

 private:
  SignedDelegationLab() = default;
  base::Status publish_root();
  base::Result<std::int64_t> publish_parent_locked();

  struct Delegation {
    std::vector<std::string> ds;
    std::uint32_t ds_ttl = 0;
  };
  std::unique_ptr<ZoneSigner> signer_;
  std::unique_ptr<AuthorityProcess> root_;
  std::unique_ptr<AuthorityProcess> parent_;
  std::unique_ptr<AuthorityProcess> child_;
  LabKey root_key_;
  LabKey parent_key_;
  std::mutex mutex_;
  std::map<std::string, Delegation> delegations_;
  std::uint32_t parent_serial_ = 0;
};

// The fixture kind of the signed lab, for the experiments that need it.
const FixtureKind& signed_delegation_fixture();

}  // namespace cutover::lab
