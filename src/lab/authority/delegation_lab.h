// DelegationLab: the three-tier lab for E8. One lab authority answers as the root and as the
// parent zone "e8.", and two more serve the child zones: the old and the new name server.
// They listen on port 53 of three addresses in 127.53.N.0/24 (resolvers that start from root
// hints ask port 53), N picked at random and retried if taken. Thread-safe like AuthorityProcess.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "lab/authority/authority_process.h"
#include "lab/fixture.h"

namespace cutover::lab {

class DelegationLab : public Fixture {
 public:
  static constexpr const char* kParent = "e8.";
  static constexpr const char* kRootServer = "a.root-servers.lab.";

  static base::Result<std::unique_ptr<DelegationLab>> start(const std::string& cutover_binary,
                                                            const std::string& work_dir);

  AuthorityProcess& top() { return *top_; }  // root and parent
  AuthorityProcess& old_server() { return *old_; }
  AuthorityProcess& new_server() { return *new_; }
  const std::string& root_address() const { return top_->host(); }
  std::string describe() const override;

 private:
  DelegationLab() = default;
  std::unique_ptr<AuthorityProcess> top_;
  std::unique_ptr<AuthorityProcess> old_;
  std::unique_ptr<AuthorityProcess> new_;
};

// Lab authorities on port 53 of 127.53.N.1, .2, ... (one per label, N random, retried on
// another N when one cannot start), for labs whose resolvers start from root hints.
base::Result<std::vector<std::unique_ptr<AuthorityProcess>>> start_port53_authorities(
    const std::string& cutover_binary, const std::string& work_dir, const std::vector<std::string>& labels);

// The fixture kind of the three-tier lab, for the experiments that need it.
const FixtureKind& delegation_fixture();

}  // namespace cutover::lab
