// The one source of cutover_pch_lib and cutover_pch_test, the targets whose precompiled header the others reuse.
