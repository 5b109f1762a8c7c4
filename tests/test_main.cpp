// SPDX-License-Identifier: BSD-2-Clause-Patent
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
