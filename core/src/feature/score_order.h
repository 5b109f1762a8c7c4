// SPDX-License-Identifier: BSD-2-Clause-Patent
// Where a score write stands in the order of a run, beside ScoreSink
// (feature/extractor.h): whoever writes scores through a sink (the Context on
// the CPU, the GPU engine) marks its calls with a CallScope, and the sink
// that stores them (context/collector.h) reads the key from here.
#pragma once

#include <compare>
#include <cstdint>

namespace vmaf {

// Where a write stands in the order of a run on one thread, which is the order
// the names are listed in (FeatureCollector::names()): frame by frame, each
// frame's features by rank (Context: its temporal features first, then the
// others, each in registration order), then the flush after the last frame. A
// write made in no such call (model scores, imported scores) comes after all of
// them, in the order those names were first written. The keys depend only on
// the configuration, never on which thread, worker instance or backend made the
// write, nor when (adr/0042).
struct OrderKey {
    static constexpr uint64_t kFlush = UINT64_MAX - 1;  // call: the flush after the last frame
    static constexpr uint64_t kNone = UINT64_MAX;       // call: none (API writes)

    uint64_t call = kNone;  // frame index of the call that wrote, kFlush or kNone
    unsigned rank = 0;      // the writing feature's place within a call
    uint64_t seq = 0;       // the write's place within that call
    auto operator<=>(const OrderKey &) const = default;
};

// Marks the extraction calls of this thread as those of frame `call` (or the
// flush, OrderKey::kFlush) while it lives, for the CollectorSinks they write
// through. Nests: the previous call is back when it goes.
class CallScope {
public:
    explicit CallScope(uint64_t call);
    ~CallScope();
    CallScope(const CallScope &) = delete;
    CallScope &operator=(const CallScope &) = delete;

    // The key of this thread's next write by the feature of place `rank`
    // within the call (counting it); the default key, of no call, outside
    // any CallScope.
    static OrderKey next_key(unsigned rank);

private:
    uint64_t prev_call_, prev_seq_;
};

}  // namespace vmaf
