// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "feature/score_order.h"

namespace vmaf {

namespace {

// The call this thread's extraction writes belong to (CallScope), and how many
// writes it made so far.
thread_local uint64_t t_call = OrderKey::kNone;
thread_local uint64_t t_seq = 0;

}  // namespace

CallScope::CallScope(uint64_t call) : prev_call_(t_call), prev_seq_(t_seq)
{
    t_call = call;
    t_seq = 0;
}

CallScope::~CallScope()
{
    t_call = prev_call_;
    t_seq = prev_seq_;
}

OrderKey CallScope::next_key(unsigned rank)
{
    if (t_call == OrderKey::kNone) return {};
    return {t_call, rank, t_seq++};
}

}  // namespace vmaf
