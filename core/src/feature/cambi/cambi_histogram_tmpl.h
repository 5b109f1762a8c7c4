// SPDX-License-Identifier: BSD-2-Clause-Patent
// CAMBI's window-histogram updates, written once and included into the
// portable kernels (cambi_kernels.h) and into each instruction-set region of
// cambi_x86.h, where `RangeAdd` (adding +1 or -1 to a run of counts) is that
// set's. No include guard: every inclusion defines them in its own namespace.

// Adds (delta +1) or removes (-1) a row's masked in-band samples: each goes to
// the counts of its value for the columns within `pad` of its own.
VMAF_INLINE void histogram_row(uint16_t *hist, const uint16_t *image, const uint16_t *mask, unsigned w, int pad,
                               HistogramBand band, int delta)
{
    for (unsigned x = 0; x < w; x++) {
        const unsigned r = unsigned(image[x] - band.base);
        if (!mask[x] || r >= band.size) continue;
        RangeAdd::apply(hist + size_t(r) * w, std::max(int(x) - pad, 0), std::min(int(x) + pad + 1, int(w)), delta);
    }
}

// Moves the window down a row: row s leaves, row a enters. Where both bring
// the same in-band value to a column the counts do not change.
VMAF_INLINE void histogram_slide(uint16_t *hist, const uint16_t *s_image, const uint16_t *s_mask,
                                 const uint16_t *a_image, const uint16_t *a_mask, unsigned w, int pad,
                                 HistogramBand band)
{
    for (unsigned x = 0; x < w; x++) {
        const unsigned rs = unsigned(s_image[x] - band.base), ra = unsigned(a_image[x] - band.base);
        const bool s_in = s_mask[x] && rs < band.size, a_in = a_mask[x] && ra < band.size;
        if ((s_in && a_in && rs == ra) || (!s_in && !a_in)) continue;
        const int lo = std::max(int(x) - pad, 0), hi = std::min(int(x) + pad + 1, int(w));
        if (s_in) RangeAdd::apply(hist + size_t(rs) * w, lo, hi, -1);
        if (a_in) RangeAdd::apply(hist + size_t(ra) * w, lo, hi, +1);
    }
}
