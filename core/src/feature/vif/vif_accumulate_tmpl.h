// SPDX-License-Identifier: BSD-2-Clause-Patent
// VIF's per-pixel information terms (accumulate() in vif_cpu.cpp) over one
// vector width: included by vif_cpu.cpp inside a target region, after the
// definition of the width's `AccIsa`. No include guard: it is compiled once per
// width, as vif_filter_tmpl.h is.
//
// The same operations in the same order on the same doubles as the scalar
// accumulate() (no FMA), N pixels at a time, and integer sums, so the result is
// identical whatever the width. Table look-ups are deferred to a scalar pass
// over a chunk of indices (vector gathers are slow); masked-off lanes index the
// table's zero padding entry. The last w % N pixels go to AccIsa::tail().

void accumulate(const int32_t *s1v, const int32_t *s2v, const int32_t *s12v, unsigned w, const uint16_t *table,
                double gain_limit, Sums &acc)
{
    using A = AccIsa;
    using I32 = A::I32;
    using I64 = A::I64;
    using D = A::D;
    using M = A::M;
    constexpr unsigned N = A::N;
    constexpr unsigned kChunk = 64;
    const I32 nsq = A::set1_32(vif::kSigmaNsq), zero = A::zero32();
    const D nsq_d = A::set1_pd(vif::kSigmaNsq), eps = A::set1_pd(vif::kGainEps);
    const D limit = A::set1_pd(gain_limit), zero_d = A::zero_pd();
    const I64 pad_idx = A::set1_64(vif::kLog2Entries);
    const I64 seventeen = A::set1_64(vif::kLog2SigmaNsq / 2048);
    I64 num_k = A::zero64(), den_k = A::zero64();
    I64 num_lin = A::zero64();
    int64_t den_lin = 0, num_tab = 0, den_tab = 0;
    alignas(A::kAlign) uint32_t i_den[kChunk], i_n1[kChunk], i_n2[kChunk];

    unsigned j = 0;
    while (j + N <= w) {
        const unsigned n = std::min(kChunk, (w - j) & ~(N - 1));
        for (unsigned c = 0; c < n; c += N, j += N) {
            const I32 s1 = A::load32(s1v + j), s2 = A::load32(s2v + j), s12 = A::load32(s12v + j);
            const M in_log = A::gt32(s1, A::sub32(nsq, A::set1_32(1)));
            const unsigned log_lanes = A::bits(in_log);
            den_lin += int(N) - __builtin_popcount(log_lanes);
            num_lin = A::add64(num_lin, A::widen_unless(in_log, s2));
            if (!log_lanes) {
                A::store_idx(i_den + c, pad_idx);
                A::store_idx(i_n1 + c, pad_idx);
                A::store_idx(i_n2 + c, pad_idx);
                continue;
            }
            const M has_num = A::and_mask(in_log, A::and_mask(A::gt32(s12, zero), A::gt32(s2, zero)));
            // Out-of-branch lanes take s1 = nsq and s12 = 0: finite, and a zero gain.
            const D s1d = A::to_pd(A::blend32(in_log, nsq, s1));
            const D s12d = A::to_pd(A::keep32(has_num, s12));
            const D s2d = A::to_pd(s2);

            const auto den = A::log2_parts(A::add_pd(s1d, nsq_d));
            den_k = A::add64_where(den_k, in_log, A::sub64(den.k, seventeen));
            A::store_idx(i_den + c, A::select64(in_log, den.idx, pad_idx));

            D g = A::div_pd(s12d, A::add_pd(s1d, eps));
            const D sv = A::max_pd(A::sub_pd(s2d, A::mul_pd(g, s12d)), zero_d);
            const D sv_sq = A::to_pd(A::trunc32(sv));
            g = A::min_pd(g, limit);
            const D numer1 = A::add_pd(sv_sq, nsq_d);
            const D gain = A::round_to_zero(A::mul_pd(A::mul_pd(g, g), s1d));
            const D numer2 = A::add_pd(gain, numer1);  // exact: integers below 2^53
            const auto n1 = A::log2_parts(numer1), n2 = A::log2_parts(numer2);
            num_k = A::add64_where(num_k, has_num, A::sub64(n2.k, n1.k));
            A::store_idx(i_n1 + c, A::select64(has_num, n1.idx, pad_idx));
            A::store_idx(i_n2 + c, A::select64(has_num, n2.idx, pad_idx));
        }
        add_table_terms(table, i_den, i_n1, i_n2, n, den_tab, num_tab);
    }
    alignas(A::kAlign) int64_t lanes[3][8];
    A::store64(lanes[0], num_k);
    A::store64(lanes[1], den_k);
    A::store64(lanes[2], num_lin);
    fold_lanes(lanes, N, num_tab, den_tab, den_lin, acc);
    A::tail(s1v + j, s2v + j, s12v + j, w - j, table, gain_limit, acc);
}
