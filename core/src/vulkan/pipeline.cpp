// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "vulkan/pipeline.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <string>
#include <vector>

#include "util/log.h"
#include "vulkan/pipeline_cache.h"
#include "vulkan/state.h"

namespace vmaf::vk {

int PipelineShelf::build_layouts(const PipelineDesc &d, PipelineObjects *o) const
{
    const auto &fn = st_.fn();
    const VkDevice dev = st_.device();
    const char *name = d.shader->name;
    VkShaderModuleCreateInfo mi = make<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
    mi.codeSize = d.shader->words * sizeof(uint32_t);
    mi.pCode = d.shader->code;
    if (int err = check_result(fn.vkCreateShaderModule(dev, &mi, nullptr, &o->module), "vkCreateShaderModule", name))
        return err;

    if (d.images) {
        // texelFetch ignores filtering and addressing; nearest, clamped, unnormalized
        // coordinates off keeps every view format and fetch legal.
        VkSamplerCreateInfo si = make<VkSamplerCreateInfo>(VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO);
        si.magFilter = si.minFilter = VK_FILTER_NEAREST;
        si.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
        si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        if (int err = check_result(fn.vkCreateSampler(dev, &si, nullptr, &o->sampler), "vkCreateSampler", name))
            return err;
    }
    std::vector<VkDescriptorSetLayoutBinding> bindings(d.buffers + d.images);
    for (unsigned i = 0; i < d.buffers + d.images; i++) {
        const bool image = i >= d.buffers;
        bindings[i].binding = i;
        bindings[i].descriptorType = image ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        bindings[i].descriptorCount = 1;
        bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        bindings[i].pImmutableSamplers = image ? &o->sampler : nullptr;
    }
    VkDescriptorSetLayoutCreateInfo li = make<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    li.bindingCount = uint32_t(bindings.size());
    li.pBindings = bindings.data();
    if (int err = check_result(fn.vkCreateDescriptorSetLayout(dev, &li, nullptr, &o->set_layout),
                               "vkCreateDescriptorSetLayout", name))
        return err;

    VkPushConstantRange pr{VK_SHADER_STAGE_COMPUTE_BIT, 0, d.push_constant_size};
    VkPipelineLayoutCreateInfo pli = make<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &o->set_layout;
    pli.pushConstantRangeCount = d.push_constant_size ? 1 : 0;
    pli.pPushConstantRanges = &pr;
    if (int err = check_result(fn.vkCreatePipelineLayout(dev, &pli, nullptr, &o->layout), "vkCreatePipelineLayout",
                               name))
        return err;
    return 0;
}

int PipelineShelf::build_pipeline(const spirv::Shader *shader, std::span<const SpecConstant> spec_constants,
                                  PipelineObjects *o) const
{
    const auto &fn = st_.fn();
    const VkDevice dev = st_.device();
    const char *name = shader->name;
    std::vector<VkSpecializationMapEntry> entries;
    std::vector<uint32_t> values;
    for (const SpecConstant &c : spec_constants) {
        entries.push_back({c.id, uint32_t(values.size() * sizeof(uint32_t)), sizeof(uint32_t)});
        values.push_back(c.value);
    }
    VkSpecializationInfo spec{uint32_t(entries.size()), entries.data(), values.size() * sizeof(uint32_t),
                              values.data()};
    VkComputePipelineCreateInfo ci = make<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = o->module;
    ci.stage.pName = "main";
    ci.stage.pSpecializationInfo = entries.empty() ? nullptr : &spec;
    ci.layout = o->layout;
    if (st_.kernel_stats()) ci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    VkPipeline pipeline = VK_NULL_HANDLE;
    const int err = check_result(fn.vkCreateComputePipelines(dev, st_.pipeline_cache(), 1, &ci, nullptr, &pipeline),
                                 "vkCreateComputePipelines", name);
    if (!err && st_.kernel_stats()) log_statistics(pipeline, name, spec_constants);
    if (!err) o->pipeline.store(pipeline, std::memory_order_release);
    return err;
}

// One line per executable of the pipeline: the statistics the driver gives,
// by its own names (VMAF_VULKAN_KERNEL_STATS).
void PipelineShelf::log_statistics(VkPipeline pipeline, const char *name,
                                   std::span<const SpecConstant> spec_constants) const
{
    const auto &fn = st_.fn();
    const VkDevice dev = st_.device();
    if (!fn.vkGetPipelineExecutablePropertiesKHR || !fn.vkGetPipelineExecutableStatisticsKHR) return;
    VkPipelineInfoKHR pi = make<VkPipelineInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
    pi.pipeline = pipeline;
    uint32_t n = 0;
    if (fn.vkGetPipelineExecutablePropertiesKHR(dev, &pi, &n, nullptr) != VK_SUCCESS) return;
    std::vector<VkPipelineExecutablePropertiesKHR> execs(
        n, make<VkPipelineExecutablePropertiesKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR));
    if (fn.vkGetPipelineExecutablePropertiesKHR(dev, &pi, &n, execs.data()) != VK_SUCCESS) return;
    std::string spec;
    for (const SpecConstant &c : spec_constants)
        spec.append(" ").append(std::to_string(c.id)).append("=").append(std::to_string(c.value));
    for (uint32_t i = 0; i < n; i++) {
        VkPipelineExecutableInfoKHR ei = make<VkPipelineExecutableInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
        ei.pipeline = pipeline;
        ei.executableIndex = i;
        uint32_t m = 0;
        if (fn.vkGetPipelineExecutableStatisticsKHR(dev, &ei, &m, nullptr) != VK_SUCCESS) continue;
        std::vector<VkPipelineExecutableStatisticKHR> stats(
            m, make<VkPipelineExecutableStatisticKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR));
        if (fn.vkGetPipelineExecutableStatisticsKHR(dev, &ei, &m, stats.data()) != VK_SUCCESS) continue;
        std::string line;
        for (uint32_t j = 0; j < m; j++) {
            const VkPipelineExecutableStatisticKHR &st = stats[j];
            char v[64] = "";
            switch (st.format) {
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
                std::snprintf(v, sizeof(v), "%s", st.value.b32 ? "yes" : "no");
                break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
                std::snprintf(v, sizeof(v), "%lld", (long long)st.value.i64);
                break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
                std::snprintf(v, sizeof(v), "%llu", (unsigned long long)st.value.u64);
                break;
            default:
                std::snprintf(v, sizeof(v), "%g", st.value.f64);
                break;
            }
            if (j) line.append(", ");
            line.append(st.name).append(" ").append(v);
        }
        log_env(VMAF_LOG_LEVEL_INFO, "Vulkan: kernel %s%s%s (%s): %s\n", name, spec.empty() ? "" : ",", spec.c_str(),
            execs[i].name, line.c_str());
    }
}

void PipelineShelf::destroy(const PipelineObjects &o) const
{
    const auto &fn = st_.fn();
    const VkDevice dev = st_.device();
    if (VkPipeline p = o.pipeline.load(std::memory_order_acquire)) fn.vkDestroyPipeline(dev, p, nullptr);
    if (o.layout) fn.vkDestroyPipelineLayout(dev, o.layout, nullptr);
    if (o.set_layout) fn.vkDestroyDescriptorSetLayout(dev, o.set_layout, nullptr);
    if (o.module) fn.vkDestroyShaderModule(dev, o.module, nullptr);
    if (o.sampler) fn.vkDestroySampler(dev, o.sampler, nullptr);
}

namespace {

thread_local PipelineDeferral *t_deferral = nullptr;

}  // namespace

int PipelineShelf::get(const PipelineDesc &d, std::shared_ptr<const PipelineObjects> *out)
{
    std::vector<uint64_t> spec;
    for (const SpecConstant &c : d.spec) spec.push_back(uint64_t(c.id) << 32 | c.value);
    Key key{d.shader, d.buffers, d.images, d.push_constant_size, std::move(spec)};
    PipelineDeferral *deferral = t_deferral && &t_deferral->shelf_ == this ? t_deferral : nullptr;
    std::shared_ptr<PipelineObjects> o;
    {
        // Asked for under the lock: two contexts asking for the same kernel at
        // once build it once.
        std::lock_guard lock(mutex_);
        if (auto it = entries_.find(key); it != entries_.end()) {
            reused_++;
            o = it->second;
        } else {
            if (entries_.size() >= kMaxEntries) {
                for (auto it = entries_.begin(); it != entries_.end();) {
                    if (it->second.use_count() == 1) {
                        destroy(*it->second);
                        it = entries_.erase(it);
                    } else {
                        ++it;
                    }
                }
            }
            o = std::make_shared<PipelineObjects>();
            int err = build_layouts(d, o.get());
            if (!err && !deferral) err = build_pipeline(d.shader, d.spec, o.get());
            if (err) {
                destroy(*o);
                return err;
            }
            if (deferral) {
                // Its own copy of the constants; the objects, held by the
                // deferral until it is compiled, are not dropped from a full shelf.
                o->deferred = [this, obj = o.get(), shader = d.shader,
                               constants = std::vector<SpecConstant>(d.spec.begin(), d.spec.end())] {
                    return build_pipeline(shader, constants, obj);
                };
                deferral->add(o, true);
            }
            built_++;
            if (PipelineCache *cache = st_.pipeline_cache_file()) cache->mark_used();
            entries_.emplace(std::move(key), o);
            *out = std::move(o);
            return 0;
        }
    }
    // Found on the shelf, perhaps still being built by another thread's
    // deferral: this thread's deferral waits for it with its own builds;
    // without one, it is waited for now. (A deferred build that failed stays
    // failed: the driver would fail it again.)
    if (o->deferred) {
        if (deferral)
            deferral->add(o, false);
        else if (int err = o->compile())
            return err;
    }
    *out = std::move(o);
    return 0;
}

int PipelineObjects::compile() const
{
    if (!deferred) return 0;
    std::call_once(compiled, [this] { compile_error = deferred(); });
    return compile_error;
}

VkPipeline PipelineObjects::ready() const
{
    if (VkPipeline p = pipeline.load(std::memory_order_acquire)) return p;
    (void)compile();
    return pipeline.load(std::memory_order_acquire);
}

PipelineDeferral::PipelineDeferral(PipelineShelf &shelf)
    : shelf_(shelf),
      outer_(t_deferral),
      max_workers_(std::min(kMaxWorkers, std::max(1u, std::thread::hardware_concurrency())))
{
    t_deferral = this;
}

PipelineDeferral::~PipelineDeferral()
{
    (void)wait();
    t_deferral = outer_;
}

void PipelineDeferral::add(std::shared_ptr<const PipelineObjects> o, bool queue)
{
    std::lock_guard lock(mutex_);
    asked_.push_back(o);
    if (!queue) return;  // another thread's deferral compiles it
    queue_.push_back(std::move(o));
    // A worker per pipeline waiting, up to max_workers_; wait()
    // compiles too. With no thread to be had, it is left to wait() (or to
    // the dispatch that needs it first).
    if (workers_.size() < max_workers_ && workers_.size() < queue_.size()) {
        try {
            workers_.emplace_back([this] { work(); });
        } catch (...) {
        }
    }
    cv_.notify_one();
}

void PipelineDeferral::work()
{
    for (;;) {
        std::shared_ptr<const PipelineObjects> o;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [this] { return closing_ || !queue_.empty(); });
            if (queue_.empty()) return;
            o = std::move(queue_.front());
            queue_.pop_front();
        }
        (void)o->compile();
    }
}

int PipelineDeferral::wait()
{
    // What no worker has taken yet is compiled here.
    for (;;) {
        std::shared_ptr<const PipelineObjects> o;
        {
            std::lock_guard lock(mutex_);
            if (queue_.empty()) break;
            o = std::move(queue_.front());
            queue_.pop_front();
        }
        (void)o->compile();
    }
    {
        std::lock_guard lock(mutex_);
        closing_ = true;
    }
    cv_.notify_all();
    for (std::thread &t : workers_) t.join();
    workers_.clear();
    std::vector<std::shared_ptr<const PipelineObjects>> asked;
    {
        std::lock_guard lock(mutex_);
        asked.swap(asked_);
        closing_ = false;
    }
    // Each compiled by now, or (another thread's) compiled or waited for here.
    int first = 0;
    for (const auto &o : asked)
        if (int err = o->compile(); err && !first) first = err;
    return first;
}

uint64_t PipelineShelf::built() const
{
    std::lock_guard lock(mutex_);
    return built_;
}

uint64_t PipelineShelf::reused() const
{
    std::lock_guard lock(mutex_);
    return reused_;
}

PipelineShelf::~PipelineShelf()
{
    if (st_.hung()) return;  // the GPU may still run them (State::mark_hung)
    for (const auto &[key, o] : entries_) destroy(*o);
}

int ComputePipeline::create(State &st, const PipelineDesc &d, std::unique_ptr<ComputePipeline> *out)
{
    std::unique_ptr<ComputePipeline> p(new ComputePipeline(st));
    p->name_ = d.shader->name;
    p->buffers_ = d.buffers;
    p->max_sets_ = d.max_sets;
    p->push_size_ = d.push_constant_size;
    if (d.push_constant_size % 4 || d.push_constant_size > st.limits().maxPushConstantsSize) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: %s: %u bytes of push constants\n", p->name_, d.push_constant_size);
        return -EINVAL;
    }
    if (int err = st.pipelines().get(d, &p->objects_)) return err;
    p->set_layout_ = p->objects_->set_layout;
    p->layout_ = p->objects_->layout;

    if ((d.buffers || d.images) && d.max_sets) {
        std::vector<VkDescriptorPoolSize> ps;
        if (d.buffers) ps.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, d.buffers * d.max_sets});
        if (d.images) ps.push_back({VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, d.images * d.max_sets});
        VkDescriptorPoolCreateInfo dpi = make<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
        dpi.maxSets = d.max_sets;
        dpi.poolSizeCount = uint32_t(ps.size());
        dpi.pPoolSizes = ps.data();
        if (int err = check_result(st.fn().vkCreateDescriptorPool(st.device(), &dpi, nullptr, &p->pool_),
                                   "vkCreateDescriptorPool", p->name_))
            return err;
    }
    *out = std::move(p);
    return 0;
}

ComputePipeline::~ComputePipeline()
{
    if (pool_) st_.fn().vkDestroyDescriptorPool(st_.device(), pool_, nullptr);
}

int ComputePipeline::make_set(std::span<const BufferRange> buffers, VkDescriptorSet *out)
{
    if (buffers.size() != buffers_ || !pool_) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: %s takes %u buffers, not %zu\n", name_, buffers_, buffers.size());
        return -EINVAL;
    }
    // Some drivers hand out more sets than the pool was made for; every
    // driver need not, so a feature asking for more fails everywhere.
    if (sets_ >= max_sets_) {
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: %s hands out %u descriptor sets, all taken\n", name_, max_sets_);
        return -ENOMEM;
    }
    const auto &fn = st_.fn();
    VkDescriptorSetAllocateInfo ai = make<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    ai.descriptorPool = pool_;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &set_layout_;
    VkDescriptorSet set;
    if (int err = check_result(fn.vkAllocateDescriptorSets(st_.device(), &ai, &set), "vkAllocateDescriptorSets", name_))
        return err;
    std::vector<VkDescriptorBufferInfo> infos(buffers.size());
    std::vector<VkWriteDescriptorSet> writes(buffers.size());
    for (size_t i = 0; i < buffers.size(); i++) {
        infos[i] = {buffers[i].buffer, buffers[i].offset, buffers[i].size};
        writes[i] = make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
        writes[i].dstSet = set;
        writes[i].dstBinding = uint32_t(i);
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &infos[i];
    }
    fn.vkUpdateDescriptorSets(st_.device(), uint32_t(writes.size()), writes.data(), 0, nullptr);
    sets_++;
    *out = set;
    return 0;
}

void ComputePipeline::set_image(VkDescriptorSet set, unsigned i, VkImageView view, VkImageLayout layout) const
{
    VkDescriptorImageInfo info{VK_NULL_HANDLE, view, layout};  // the sampler is immutable
    VkWriteDescriptorSet w = make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    w.dstSet = set;
    w.dstBinding = buffers_ + i;
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    w.pImageInfo = &info;
    st_.fn().vkUpdateDescriptorSets(st_.device(), 1, &w, 0, nullptr);
}

void ComputePipeline::dispatch(VkCommandBuffer cmd, VkDescriptorSet set, const void *push, uint32_t gx,
                               uint32_t gy, uint32_t gz) const
{
    const auto &fn = st_.fn();
    const VkPipeline pipeline = objects_->ready();
    if (!pipeline) return;  // a deferred build that failed: its deferral's wait() says so
    fn.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    if (set) fn.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set, 0, nullptr);
    if (push_size_) fn.vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size_, push);
    fn.vkCmdDispatch(cmd, gx, gy, gz);
}

}  // namespace vmaf::vk
