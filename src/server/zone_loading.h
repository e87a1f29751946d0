// Loading every configured zone into one ZoneSet, all or nothing: when any zone fails the
// caller keeps serving its previous set. Stateless; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "auth/engine.h"
#include "config/config.h"
#include "zone/diagnostic.h"

namespace cutover::server {

struct LoadedZone {
  dns::Name origin;
  std::string file;
  std::uint32_t serial = 0;
  std::size_t records = 0;
  std::shared_ptr<const zone::Zone> zone;
};

struct ZoneSetLoad {
  std::shared_ptr<const auth::ZoneSet> zones;  // null when any zone failed to load
  std::vector<LoadedZone> loaded;              // the zones that did load
  std::vector<zone::Diagnostic> diagnostics;   // warnings and errors of every zone, in order
};

// Zones with `dnssec: {mode: online}` get their keys' records added and, when `own_signers`
// (the top-level zones; a view's copies use their origin's), their online signer registered
// (auth::set_online_signer); a zone without it has its origin's signer removed.
ZoneSetLoad load_zones(const std::vector<config::ZoneConfig>& zones, bool own_signers = true);

// One view's own zones, loaded (docs/steering.md, "Views").
struct LoadedView {
  config::ViewConfig config;
  std::shared_ptr<const auth::ZoneSet> zones;
};

// The match tables of `views` (auth::ViewTable), built once per configuration so that a
// publication of new default zones reuses them; nullptr without views.
std::shared_ptr<const auth::ViewTable> view_table(const std::vector<LoadedView>& views);

// `zones` (the default ones) with `views` attached: each view's set is its own zones over
// them (auth::ZoneSet::overlay); without views, `zones` alone. `table`: view_table(views), or
// nullptr to build it here.
std::shared_ptr<const auth::ZoneSet> attach_views(const auth::ZoneSet& zones, const std::vector<LoadedView>& views,
                                                  const auth::ViewTable* table = nullptr);

}  // namespace cutover::server
