// Float motion against Netflix libvmaf's output on every golden pair, options
// and their output names, and bad options.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cmath>
#include <cstring>

#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "run.h"

using namespace vmaf::test;

TEST_CASE("float_motion matches libvmaf on every golden pair", "[float_motion][golden]")
{
}
