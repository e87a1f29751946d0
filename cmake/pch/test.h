// Precompiled for the unit test binaries and again for the integration tests (CUTOVER_PCH,
// cmake/cutover_module.cmake): the libraries' headers and GoogleTest with GoogleMock.
#pragma once

#include "lib.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
