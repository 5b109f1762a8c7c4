// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "vulkan/host_import.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "picture/picture.h"
#include "util/env.h"
#include "util/log.h"
#include "vulkan/state.h"

namespace vmaf::vk {

namespace {

constexpr VkExternalMemoryHandleTypeFlagBits kHostAllocation = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;

// VMAF_VULKAN_HOST_IMPORT: "0" none; "all" every storage; unset, "", "1" or
// "auto" those of at least kMinImportBytes. Anything else is said once and
// taken as "auto". Returns false for "0".
bool import_policy(size_t *min_bytes)
{
    *min_bytes = HostImports::kMinImportBytes;
    switch (env_choice("VMAF_VULKAN_HOST_IMPORT", {"0", "1", "auto", "all"})) {
    case 0: return false;
    case 3: *min_bytes = 0; return true;
    case -2: env_unknown("VMAF_VULKAN_HOST_IMPORT", {"0", "1", "auto", "all"}, "taken as auto"); return true;
    default: return true;
    }
}

}  // namespace

struct HostImports::Core {
    struct Entry {
        VkBuffer buffer = VK_NULL_HANDLE;  // null: the import failed, copy this storage
        VkDeviceMemory memory = VK_NULL_HANDLE;
        std::weak_ptr<HostStorage> storage;
        uint64_t hook = 0;
    };

    Core(State &s, size_t min) : st(s), min_bytes(min) {}

    void destroy(Entry &e)
    {
        if (e.buffer) st.fn().vkDestroyBuffer(st.device(), e.buffer, nullptr);
        if (e.memory) st.fn().vkFreeMemory(st.device(), e.memory, nullptr);
        e.buffer = VK_NULL_HANDLE;
        e.memory = VK_NULL_HANDLE;
    }

    // The storage's memory is about to be freed (its hook): its import goes first.
    void forget(const HostStorage *key)
    {
        std::lock_guard lock(mutex);
        if (closed) return;  // the engine's end destroyed it
        auto it = entries.find(key);
        if (it == entries.end()) return;
        destroy(it->second);
        entries.erase(it);
    }

    int import(const HostStorage &s, Entry *e);

    State &st;
    const size_t min_bytes;  // smaller storages are copied, never imported
    mutable std::mutex mutex;
    bool closed = false;
    std::unordered_map<const HostStorage *, Entry> entries;
    uint64_t imports = 0;
    bool warned = false;
};

int HostImports::Core::import(const HostStorage &s, Entry *e)
{
    const auto &fn = st.fn();
    const VkDeviceSize align = st.host_import_alignment();
    if (reinterpret_cast<uintptr_t>(s.base()) % align || s.size() % align) return -EINVAL;
    if (VkResult r = st.injected(State::Fault::HostImport); r != VK_SUCCESS) return errno_from(r);

    VkMemoryHostPointerPropertiesEXT hp = make<VkMemoryHostPointerPropertiesEXT>(
        VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT);
    if (VkResult r = fn.vkGetMemoryHostPointerPropertiesEXT(st.device(), kHostAllocation, s.base(), &hp);
        r != VK_SUCCESS)
        return errno_from(r);

    VkExternalMemoryBufferCreateInfo ei = make<VkExternalMemoryBufferCreateInfo>(
        VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO);
    ei.handleTypes = kHostAllocation;
    VkBufferCreateInfo bi = make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    bi.pNext = &ei;
    bi.size = s.size();
    bi.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if (VkResult r = fn.vkCreateBuffer(st.device(), &bi, nullptr, &e->buffer); r != VK_SUCCESS) {
        e->buffer = VK_NULL_HANDLE;
        return errno_from(r);
    }
    VkMemoryRequirements req;
    fn.vkGetBufferMemoryRequirements(st.device(), e->buffer, &req);
    // Host-coherent memory only: the submission then makes the host's writes
    // visible to the device, with nothing to flush.
    const VkPhysicalDeviceMemoryProperties &mp = st.memory_properties();
    const uint32_t allowed = req.memoryTypeBits & hp.memoryTypeBits;
    uint32_t type = VK_MAX_MEMORY_TYPES;
    for (uint32_t t = 0; t < mp.memoryTypeCount && type == VK_MAX_MEMORY_TYPES; t++)
        if ((allowed & (1u << t)) && (mp.memoryTypes[t].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
            type = t;
    if (type == VK_MAX_MEMORY_TYPES || req.size > s.size()) {
        destroy(*e);
        return -ENOTSUP;
    }
    VkImportMemoryHostPointerInfoEXT ii = make<VkImportMemoryHostPointerInfoEXT>(
        VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT);
    ii.handleType = kHostAllocation;
    ii.pHostPointer = s.base();
    VkMemoryAllocateInfo ai = make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    ai.pNext = &ii;
    ai.allocationSize = s.size();
    ai.memoryTypeIndex = type;
    if (VkResult r = fn.vkAllocateMemory(st.device(), &ai, nullptr, &e->memory); r != VK_SUCCESS) {
        e->memory = VK_NULL_HANDLE;
        destroy(*e);
        return errno_from(r);
    }
    if (VkResult r = fn.vkBindBufferMemory(st.device(), e->buffer, e->memory, 0); r != VK_SUCCESS) {
        destroy(*e);
        return errno_from(r);
    }
    return 0;
}

std::unique_ptr<HostImports> HostImports::create(State &st, std::string *why)
{
    size_t min_bytes;
    if (!import_policy(&min_bytes)) {
        *why = "VMAF_VULKAN_HOST_IMPORT=0";
        return nullptr;
    }
    if (!st.host_import_alignment()) {
        *why = std::string("no ") + VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME;
        return nullptr;
    }
    // Buffers for copies out of imported host allocations.
    VkPhysicalDeviceExternalBufferInfo bi = make<VkPhysicalDeviceExternalBufferInfo>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO);
    bi.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    bi.handleType = kHostAllocation;
    VkExternalBufferProperties props = make<VkExternalBufferProperties>(VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES);
    if (!st.ifn().GetPhysicalDeviceExternalBufferProperties) {
        *why = "no vkGetPhysicalDeviceExternalBufferProperties";
        return nullptr;
    }
    st.ifn().GetPhysicalDeviceExternalBufferProperties(st.physical_device(), &bi, &props);
    if (!(props.externalMemoryProperties.externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT)) {
        *why = "host allocations are not importable for transfer buffers";
        return nullptr;
    }
    return std::unique_ptr<HostImports>(new HostImports(std::make_shared<Core>(st, min_bytes)));
}

HostImports::~HostImports()
{
    std::vector<std::pair<std::weak_ptr<HostStorage>, uint64_t>> hooks;
    {
        // Under the lock: a storage freed meanwhile waits in its hook until its
        // import is destroyed, then finds nothing left to do.
        std::lock_guard lock(core_->mutex);
        core_->closed = true;
        for (auto &[key, e] : core_->entries) {
            core_->destroy(e);
            hooks.emplace_back(e.storage, e.hook);
        }
        core_->entries.clear();
    }
    for (auto &[storage, token] : hooks)
        if (std::shared_ptr<HostStorage> s = storage.lock()) s->remove_hook(token);
}

bool HostImports::find(const VmafPicture &pic, unsigned n_planes, const size_t row_bytes[3], VkBuffer *buffer,
                       VkDeviceSize offset[3])
{
    const std::shared_ptr<HostStorage> s = picture_host_storage(pic);
    if (!s || s->size() < core_->min_bytes) return false;
    // Every row of every plane inside the storage.
    const auto *base = static_cast<const std::byte *>(s->base());
    for (unsigned p = 0; p < n_planes; p++) {
        const auto *data = static_cast<const std::byte *>(pic.data[p]);
        if (pic.stride[p] < 0 || data < base || !pic.h[p]) return false;
        const size_t at = size_t(data - base);
        const size_t end = at + size_t(pic.stride[p]) * (pic.h[p] - 1) + row_bytes[p];
        if (end > s->size() || end < at) return false;
        offset[p] = at;
    }

    std::lock_guard lock(core_->mutex);
    auto it = core_->entries.find(s.get());
    if (it == core_->entries.end()) {
        Core::Entry e;
        e.storage = s;
        if (const int err = core_->import(*s, &e)) {
            if (!core_->warned)
                log(VMAF_LOG_LEVEL_WARNING, "Vulkan engine: a host picture could not be imported (%d); such "
                                            "pictures are copied\n", err);
            core_->warned = true;
        } else {
            core_->imports++;
        }
        // Failures are remembered too, until the storage goes.
        e.hook = s->add_hook([core = core_, key = s.get()] { core->forget(key); });
        it = core_->entries.emplace(s.get(), e).first;
    }
    *buffer = it->second.buffer;
    return *buffer != VK_NULL_HANDLE;
}

size_t HostImports::min_bytes() const { return core_->min_bytes; }

uint64_t HostImports::imports() const
{
    std::lock_guard lock(core_->mutex);
    return core_->imports;
}

size_t HostImports::live() const
{
    std::lock_guard lock(core_->mutex);
    size_t n = 0;
    for (const auto &[key, e] : core_->entries) n += e.buffer != VK_NULL_HANDLE;
    return n;
}

}  // namespace vmaf::vk
