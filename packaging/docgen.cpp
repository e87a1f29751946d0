// cutover-docgen: prints the documents generated from the config key table, for the package
// build (scripts/package.sh): `man5` (cutover.yaml(5)), `example` (/etc/cutover/cutover.yaml),
// `zone` (/etc/cutover/example.test.zone, which the example serves).
#include <iostream>
#include <string>

#include "config/docs.h"
#include "config/embedded.h"

int main(int argc, char** argv) {
  std::string what = argc > 1 ? argv[1] : "";
  std::string version = argc > 2 ? argv[2] : "0";
  if (what == "man5") {
    std::cout << cutover::config::config_man_page(version);
  } else if (what == "example") {
    std::cout << cutover::config::example_config(cutover::config::PackagedPaths{});
  } else if (what == "zone") {
    std::cout << cutover::config::embedded_zone_text();
  } else {
    std::cerr << "usage: cutover-docgen man5|example|zone [VERSION]\n";
    return 2;
  }
  return 0;
}
