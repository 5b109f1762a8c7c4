// SPDX-License-Identifier: BSD-2-Clause-Patent
// The top and sum passes (cambi_top.comp, cambi_sum.comp) run every slot in
// one dispatch: a slot's workgroups are [first, first + groups) of it
// (kConstSlots). The last of a slot's workgroups to finish then finishes the
// slot (the top pass selects, the sum pass pools), so no barrier and no
// dispatch of its own stand between the pass and that step. Every workgroup
// counts itself in the slot's selection word `word` once its writes are done;
// the one that counts last reads the other workgroups' writes through the
// coherent views below, which take no stale copies from its SM's caches.
layout(std430, set = 0, binding = 5) coherent buffer CountsNow { uint v[]; } counts_now;
layout(std430, set = 0, binding = 6) coherent buffer PartialsNow { int64_t v[]; } partials_now;

struct SlotJob {
    uint slot;
    uint cvalue_offset, count;  // its c-values
    uint k;                     // how many the pooling takes
    uint first, groups;         // its workgroups, and its partials
};

// The slot of this workgroup, of the `slots` in use.
SlotJob slot_job(uint slots)
{
    const uint g = gl_WorkGroupID.x;
    uint s = 0u;
    while (s + 1u < slots && g >= consts.v[kConstSlots + (s + 1u) * kSlotWords + kSlotFirst]) s++;
    const uint at = kConstSlots + s * kSlotWords;
    return SlotJob(s, consts.v[at + kSlotAt], consts.v[at + kSlotValues], consts.v[at + kSlotK],
                   consts.v[at + kSlotFirst], consts.v[at + kSlotGroups]);
}

shared bool last_group;

// Called by every thread of the workgroup after its last write to counts or
// partials; true in every thread of the slot's last workgroup.
bool last_to_arrive(SlotJob j, uint word)
{
    memoryBarrierBuffer();
    barrier();
    if (gl_LocalInvocationID.x == 0u)
        last_group = atomicAdd(counts.v[sel_index(j.slot, word)], 1u) == j.groups - 1u;
    barrier();
    memoryBarrierBuffer();
    return last_group;
}
