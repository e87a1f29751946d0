// Transport: which of DNS's two transports a message came over. Shared by the listeners
// (net) and the answer engine (auth), which must not depend on each other.
#pragma once

namespace cutover::base {

enum class Transport { kUdp, kTcp };

}  // namespace cutover::base
