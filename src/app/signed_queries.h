// Queries signed with TSIG (RFC 8945): verified, answered in the view whose match-keys lists
// the key (docs/steering.md, "Views"; without such a view, as an unsigned query from the same
// address would be), and signed with the same key. A failed check is answered NOTAUTH with
// the TSIG error (RFC 8945 §5.3.2). UPDATE, NOTIFY and transfers are not handled here.
// Installed as a server request handler when writes.tsig-keys lists keys; thread-safe.
#pragma once

#include "config/config.h"
#include "server/server.h"

namespace cutover::app {

// Adds the request handler to `server` (before Server::run) when `config` defines TSIG keys.
// `server` must outlive it.
void install_signed_queries(server::Server& server, const config::Config& config);

}  // namespace cutover::app
