// SPDX-License-Identifier: BSD-2-Clause-Patent
// The probe of the device's fma() (fma_probe.comp): fma_native() of float
// triples chosen to catch a second rounding, compared with the CPU's fmaf
// (ADR 0086).
#include "feature/common/native_fma_vk.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "spirv.h"
#include "util/env.h"
#include "util/log.h"
#include "vulkan/command.h"
#include "vulkan/memory.h"
#include "vulkan/pipeline.h"
#include "vulkan/state.h"

namespace vmaf::vk {

namespace {

// Triples for run_fma_probe(), all of normal floats with normal results:
// random magnitudes; c the product rounded and negated (fused, the result is
// the product's rounding error; rounded twice, 0); products near 1 of floats
// a unit apart, with many halfway cases; and values of a blur's magnitudes.
std::vector<float> fma_probe_triples()
{
    std::vector<float> t;
    std::mt19937 rng(2026);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::uniform_int_distribution<int> exponent(-30, 30);
    const auto add = [&t](float a, float b, float c) { t.insert(t.end(), {a, b, c}); };
    for (int i = 0; i < 2048; i++)
        add(std::ldexp(unit(rng), exponent(rng)), std::ldexp(unit(rng), exponent(rng)),
            std::ldexp(unit(rng), exponent(rng)));
    for (int i = 0; i < 1024; i++) {
        const float a = 3.0f * unit(rng), b = 3.0f * unit(rng);
        const float product = a * b;
        add(a, b, -product);
    }
    for (int i = 0; i < 512; i++) {
        const float a = 1.0f + std::ldexp(float(i), -23);
        add(a, a, -1.0f);
        add(a, 1.0f + std::ldexp(1.0f, -12), std::ldexp(float(i % 7) - 3.0f, -24));
    }
    for (int i = 0; i < 1024; i++) add(0.25f * unit(rng), 100.0f * unit(rng), 50.0f * unit(rng));
    return t;
}

// 1 when the kernels' fma_native() gives the CPU's fmaf (rounded once) on
// every probe triple, 0 when not, a negative errno when the probe cannot run.
int run_fma_probe(State &st)
{
    const std::vector<float> t = fma_probe_triples();
    const uint32_t n = uint32_t(t.size() / 3);
    PipelineDesc d;
    d.shader = &spirv::fma_probe;
    d.buffers = 2;
    d.push_constant_size = sizeof(uint32_t);
    std::unique_ptr<ComputePipeline> probe;
    if (int err = ComputePipeline::create(st, d, &probe)) return err;
    Buffer in, out;
    if (int err = st.allocator().create_buffer(t.size() * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                               MemoryUse::Upload, &in))
        return err;
    if (int err = st.allocator().create_buffer(n * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                               MemoryUse::Readback, &out))
        return err;
    std::memcpy(in.data(), t.data(), t.size() * sizeof(float));
    if (int err = in.flush()) return err;
    VkDescriptorSet set = VK_NULL_HANDLE;
    const BufferRange ranges[] = {{in.get(), 0, in.size()}, {out.get(), 0, out.size()}};
    if (int err = probe->make_set(ranges, &set)) return err;
    if (int err = run_once(st, [&](VkCommandBuffer cmd) {
            probe->dispatch(cmd, set, &n, (n + 63) / 64);
            memory_barrier(st, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                           VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        }))
        return err;
    if (int err = out.invalidate()) return err;
    unsigned differ = 0;
    for (uint32_t i = 0; i < n; i++) {
        const float want = std::fma(t[3 * i], t[3 * i + 1], t[3 * i + 2]);
        float got;
        std::memcpy(&got, out.data() + i * sizeof(float), sizeof got);
        if (std::bit_cast<uint32_t>(want) != std::bit_cast<uint32_t>(got)) differ++;
    }
    log(VMAF_LOG_LEVEL_DEBUG, "%u of %u fma() probes differ from fmaf: %s\n", differ, n,
        differ ? "libjxl's multiply-add is emulated in double" : "the kernels use fma()");
    return differ ? 0 : 1;
}

}  // namespace

bool native_fma(State &st)
{
    if (!env_switch("VMAF_VULKAN_NATIVE_FMA", true)) return false;
    return st.once("fma() rounds once", [&st] { return run_fma_probe(st); }) == 1;
}

}  // namespace vmaf::vk
