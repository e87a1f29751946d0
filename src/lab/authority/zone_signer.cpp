// Keys and signatures through dnssec-keygen and dnssec-signzone (bind9-utils).
#include "lab/authority/zone_signer.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "lab/process.h"

namespace cutover::lab {
namespace {

using base::ErrorCode;
using base::make_error;

constexpr int kSignatureDays = 30;

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace

bool ZoneSigner::available() {
  return program_exists("dnssec-keygen") && program_exists("dnssec-signzone") && program_exists("dnssec-dsfromkey");
}

base::Result<LabKey> ZoneSigner::make_key(const std::string& zone, std::uint32_t dnskey_ttl) {
  CommandOutput made = run_capture({"dnssec-keygen", "-q", "-K", dir_, "-L", std::to_string(dnskey_ttl), "-a",
                                    "ECDSAP256SHA256", "-f", "KSK", "-n", "ZONE", zone});
  if (made.exit_code != 0) return make_error(ErrorCode::kIo, "dnssec-keygen " + zone + ": " + first_line(made.text));
  LabKey key;
  key.zone = zone;
  key.stem = dir_ + "/" + trimmed(made.text);
  // dnssec-dsfromkey prints "ZONE IN DS TAG ALG 2 HEX".
  CommandOutput ds = run_capture({"dnssec-dsfromkey", "-2", key.stem + ".key"});
  std::istringstream fields(ds.text);
  std::string owner, klass, type, tag, algorithm, digest_type, digest;
  if (ds.exit_code != 0 || !(fields >> owner >> klass >> type >> tag >> algorithm >> digest_type >> digest) || type != "DS") {
    return make_error(ErrorCode::kIo, "dnssec-dsfromkey " + key.stem + ": " + first_line(ds.text));
  }
  key.tag = static_cast<std::uint16_t>(std::stoul(tag));
  key.ds = fmt::format("{} {} {} {}", tag, algorithm, digest_type, digest);
  return key;
}

base::Result<std::string> ZoneSigner::sign(const std::string& zone, const std::string& text,
                                           const std::vector<LabKey>& keys) {
  std::string stem = fmt::format("{}/{}sign-{}", dir_, zone, files_.fetch_add(1));
  std::string input = text;
  for (const auto& key : keys) input += "$INCLUDE " + key.stem + ".key\n";
  if (auto written = write_text(stem + ".in", input); !written) return written.error();
  // -z: the KSK-flagged key signs every RRset, not only the DNSKEY set (one key per generation).
  // -d: the dsset- file it writes goes to the signer's directory, not the current one.
  std::vector<std::string> argv = {"dnssec-signzone", "-q", "-z", "-o", zone, "-K", dir_, "-d", dir_,
                                   "-e", fmt::format("+{}", kSignatureDays * 86400), "-f", stem + ".signed", stem + ".in"};
  for (const auto& key : keys) argv.push_back(key.stem);
  CommandOutput signed_zone = run_capture(argv);
  if (signed_zone.exit_code != 0) {
    return make_error(ErrorCode::kIo, "dnssec-signzone " + zone + ": " + first_line(signed_zone.text));
  }
  std::ifstream in(stem + ".signed");
  std::stringstream out;
  out << in.rdbuf();
  if (out.str().empty()) return make_error(ErrorCode::kIo, "dnssec-signzone wrote nothing to " + stem + ".signed");
  return out.str();
}

}  // namespace cutover::lab
