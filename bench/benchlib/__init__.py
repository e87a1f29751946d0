# Helpers for bench/compare: zone and query generation, a minimal DNS probe, the servers
# under test, /proc measurements and the report. Standard library only.
