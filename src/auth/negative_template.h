// NegativeTemplate: the SOA record of a zone's negative answers (NXDOMAIN, NODATA),
// encoded once with its compression pointers, so an answer copies it and shifts the
// pointers by how much longer the query name is than the origin. Immutable; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "zone/zone.h"

namespace cutover::auth {

class NegativeTemplate {
 public:
  NegativeTemplate() = default;
  explicit NegativeTemplate(const zone::Zone& zone);

  // Appends the authority SOA record for a question whose name (lowercase wire, labels
  // starting at `label_starts`) lies in the zone, exactly as the general encoder would
  // write it. False when the name shares a label above the origin with the SOA's MNAME or
  // RNAME: compression would then point into the question, so the general path answers.
  bool append(std::span<const std::uint8_t> lower_qname, std::span<const std::uint8_t> label_starts,
              std::uint8_t* out) const;
  std::size_t size() const { return record_.size(); }

 private:
  std::vector<std::uint8_t> record_;      // the SOA RR as written after a question for the origin
  std::vector<std::uint16_t> pointers_;   // offsets in record_ of compression pointers
  std::vector<std::vector<std::uint8_t>> clashing_labels_;  // lowercase, length byte first
  std::size_t origin_size_ = 0;
  std::size_t origin_labels_ = 0;
};

}  // namespace cutover::auth
