// SPDX-License-Identifier: BSD-2-Clause-Patent
// An owning pointer to an Engine that needs no Vulkan header: the Context holds
// one in every build (empty without Vulkan), and its deleter is defined where
// the engine is complete (context/context.cpp).
#pragma once

#include <memory>

namespace vmaf::vk {

class Engine;

struct EngineDeleter {
    void operator()(Engine *e) const;
};

}  // namespace vmaf::vk
