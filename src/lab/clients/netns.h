// NetNamespace: one private network namespace of a client case (`ip netns add`, needs root):
// loopback up, the IPv6 origin addresses on it, its own /etc/netns/NAME/resolv.conf (which
// `ip netns exec` bind-mounts over /etc/resolv.conf for the programs it starts), nftables
// rules that exist only inside it. Deleted by the destructor, and by the lab's interrupt
// handler on Ctrl-C. Entered: the calling thread's sockets are made inside the namespace
// while it lives (setns is per thread). Not thread-safe; one case thread owns each.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/result.h"

namespace cutover::lab {

// The IPv6 addresses the lab adds to the namespace's loopback (2001:db8::/32, RFC 3849, so
// that RFC 6724 ranks them above IPv4 loopback as it would a real global address).
constexpr const char* kOriginV6First = "2001:db8::2";
constexpr const char* kOriginV6Second = "2001:db8::3";
constexpr const char* kOriginV4First = "127.0.0.2";
constexpr const char* kOriginV4Second = "127.0.0.3";

// Empty when this process can create namespaces; else why not ("needs root ...").
std::string namespaces_unavailable();

class NetNamespace {
 public:
  static base::Result<std::unique_ptr<NetNamespace>> create();
  ~NetNamespace();
  NetNamespace(const NetNamespace&) = delete;
  NetNamespace& operator=(const NetNamespace&) = delete;

  const std::string& name() const { return name_; }
  // Prefix for a command that must run inside: {"ip", "netns", "exec", NAME}.
  std::vector<std::string> exec_prefix() const { return {"ip", "netns", "exec", name_}; }
  base::Status write_resolv_conf(const std::string& text);
  // Loads an nft ruleset (nft -f) inside the namespace.
  base::Status load_rules(const std::string& ruleset, const std::string& work_dir);
  // `nft -j list ruleset` inside the namespace (counters), or the error text.
  std::string list_rules();

  // The calling thread is inside the namespace until the guard is destroyed.
  class Entered {
   public:
    explicit Entered(int previous) : previous_(previous) {}
    Entered(Entered&& other) noexcept : previous_(other.previous_) { other.previous_ = -1; }
    Entered(const Entered&) = delete;
    Entered& operator=(const Entered&) = delete;
    Entered& operator=(Entered&&) = delete;
    ~Entered();

   private:
    int previous_;
  };
  base::Result<Entered> enter();

  // Deletes namespaces named by an earlier lab process that is gone (killed before cleanup),
  // then prepares /run/netns for concurrent creation.
  static void remove_stale();

 private:
  NetNamespace() = default;
  std::string name_;
};

}  // namespace cutover::lab
