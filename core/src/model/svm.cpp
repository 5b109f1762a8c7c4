// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "model/svm.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace vmaf {

namespace {

// Whitespace-separated tokens of libsvm's text, line by line.
class Tokenizer {
public:
    explicit Tokenizer(std::string_view text) : text_(text) {}

    // The next token on any line; empty at the end of the text.
    std::string_view next()
    {
        skip_space(true);
        return take();
    }

    // The next token on the current line; empty at its end.
    std::string_view next_on_line()
    {
        skip_space(false);
        return take();
    }

    // Skip what is left of the current line.
    void end_line()
    {
        while (pos_ < text_.size() && text_[pos_] != '\n') pos_++;
        if (pos_ < text_.size()) pos_++;
    }

    bool at_end()
    {
        skip_space(true);
        return pos_ >= text_.size();
    }

private:
    static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

    void skip_space(bool newlines)
    {
        while (pos_ < text_.size() && (is_space(text_[pos_]) || (newlines && text_[pos_] == '\n')))
            pos_++;
    }

    std::string_view take()
    {
        const size_t start = pos_;
        while (pos_ < text_.size() && !is_space(text_[pos_]) && text_[pos_] != '\n') pos_++;
        return text_.substr(start, pos_ - start);
    }

    std::string_view text_;
    size_t pos_ = 0;
};

// The whole token must be a finite number. from_chars rounds correctly, as the
// strtod behind libsvm's stream extraction does, so the doubles are identical.
bool to_double(std::string_view tok, double *out)
{
    if (!tok.empty() && tok.front() == '+') tok.remove_prefix(1);
    if (tok.empty() || tok.front() == '+') return false;
    const auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), *out);
    return ec == std::errc() && end == tok.data() + tok.size() && std::isfinite(*out);
}

bool to_int(std::string_view tok, int *out)
{
    if (!tok.empty() && tok.front() == '+') tok.remove_prefix(1);
    const auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), *out);
    return !tok.empty() && ec == std::errc() && end == tok.data() + tok.size();
}

int fail(std::string *err, std::string msg)
{
    if (err) *err = "libsvm model: " + std::move(msg);
    return -EINVAL;
}

}  // namespace

int SvmRegressor::parse(std::string_view text, SvmRegressor *out, std::string *err)
{
    SvmRegressor m;
    Tokenizer tok(text);
    bool have_type = false, have_kernel = false, have_rho = false;
    int nr_class = 2, total_sv = -1;

    // Header: "key value..." pairs up to the "SV" line.
    for (;;) {
        const std::string_view key = tok.next();
        if (key.empty()) return fail(err, "no \"SV\" line");
        if (key == "SV") break;
        if (key == "svm_type") {
            const std::string_view v = tok.next_on_line();
            if (v != "nu_svr" && v != "epsilon_svr")
                return fail(err, "svm_type '" + std::string(v) +
                                     "' is not supported (regression models only: nu_svr, epsilon_svr)");
            have_type = true;
        } else if (key == "kernel_type") {
            const std::string_view v = tok.next_on_line();
            if (v == "linear") m.kernel_ = Kernel::Linear;
            else if (v == "polynomial") m.kernel_ = Kernel::Poly;
            else if (v == "rbf") m.kernel_ = Kernel::Rbf;
            else if (v == "sigmoid") m.kernel_ = Kernel::Sigmoid;
            else return fail(err, "kernel_type '" + std::string(v) + "' is not supported");
            have_kernel = true;
        } else if (key == "gamma") {
            if (!to_double(tok.next_on_line(), &m.gamma_)) return fail(err, "cannot read gamma");
        } else if (key == "coef0") {
            if (!to_double(tok.next_on_line(), &m.coef0_)) return fail(err, "cannot read coef0");
        } else if (key == "degree") {
            if (!to_int(tok.next_on_line(), &m.degree_)) return fail(err, "cannot read degree");
        } else if (key == "nr_class") {
            if (!to_int(tok.next_on_line(), &nr_class)) return fail(err, "cannot read nr_class");
            // Regression models always have two "classes" and one coefficient per SV.
            if (nr_class != 2) return fail(err, "nr_class must be 2 for a regression model");
        } else if (key == "total_sv") {
            if (!to_int(tok.next_on_line(), &total_sv) || total_sv < 0)
                return fail(err, "cannot read total_sv");
        } else if (key == "rho") {
            if (!to_double(tok.next_on_line(), &m.rho_)) return fail(err, "cannot read rho");
            have_rho = true;
        } else if (key == "label" || key == "nr_sv" || key == "probA" || key == "probB") {
            // Classification and probability data: not used by regression.
            tok.end_line();
            continue;
        } else {
            return fail(err, "unknown header entry '" + std::string(key) + "'");
        }
        if (!tok.next_on_line().empty())
            return fail(err, "extra values after '" + std::string(key) + "'");
    }
    if (!have_type) return fail(err, "no svm_type");
    if (!have_kernel) return fail(err, "no kernel_type");
    if (!have_rho) return fail(err, "no rho");
    if (total_sv < 0) return fail(err, "no total_sv");
    tok.end_line();

    // One line per support vector: "coef index:value index:value ...".
    // Reserve no more than the text can hold (a vector takes at least two
    // characters, "c\n"): total_sv is the file's word, not a size to trust.
    const size_t expected = std::min(size_t(total_sv), text.size() / 2);
    m.coef_.reserve(expected);
    m.offsets_.reserve(expected + 1);
    m.offsets_.push_back(0);
    for (int i = 0; i < total_sv; i++) {
        const std::string where = "support vector " + std::to_string(i + 1);
        double coef;
        const std::string_view first = tok.next();
        if (first.empty()) return fail(err, "total_sv is " + std::to_string(total_sv) +
                                                 " but only " + std::to_string(i) + " are given");
        if (!to_double(first, &coef)) return fail(err, where + ": bad coefficient '" + std::string(first) + "'");
        m.coef_.push_back(coef);
        int last_index = 0;
        for (std::string_view t = tok.next_on_line(); !t.empty(); t = tok.next_on_line()) {
            const size_t colon = t.find(':');
            Node n;
            if (colon == std::string_view::npos || !to_int(t.substr(0, colon), &n.index) ||
                !to_double(t.substr(colon + 1), &n.value))
                return fail(err, where + ": bad entry '" + std::string(t) + "'");
            // The kernel walks indices in order, as libsvm does.
            if (n.index <= last_index)
                return fail(err, where + ": indices must be positive and increasing");
            last_index = n.index;
            m.nodes_.push_back(n);
        }
        m.offsets_.push_back(m.nodes_.size());
        tok.end_line();
    }
    if (!tok.at_end()) return fail(err, "more support vectors than total_sv (" + std::to_string(total_sv) + ")");
    *out = std::move(m);
    return 0;
}

double SvmRegressor::kernel(std::span<const double> x, std::span<const Node> sv) const
{
    // x is dense (index i + 1 at x[i]); sv is sparse. The order of the
    // additions follows libsvm's merge of two sparse vectors exactly.
    auto dot = [&] {
        double sum = 0;
        for (const Node &n : sv)
            if (size_t(n.index) <= x.size()) sum += x[size_t(n.index) - 1] * n.value;
        return sum;
    };
    switch (kernel_) {
    case Kernel::Linear:
        return dot();
    case Kernel::Poly: {
        // libsvm's powi: exponentiation by squaring.
        double base = gamma_ * dot() + coef0_, r = 1.0;
        for (int d = degree_; d > 0; d /= 2) {
            if (d % 2 == 1) r *= base;
            base *= base;
        }
        return r;
    }
    case Kernel::Sigmoid:
        return std::tanh(gamma_ * dot() + coef0_);
    case Kernel::Rbf:
        break;
    }
    double sum = 0;
    size_t i = 0, j = 0;  // x[i] has index i + 1
    while (i < x.size() && j < sv.size()) {
        const size_t xi = i + 1, yi = size_t(sv[j].index);
        if (xi == yi) {
            const double d = x[i] - sv[j].value;
            sum += d * d;
            i++;
            j++;
        } else if (xi > yi) {
            sum += sv[j].value * sv[j].value;
            j++;
        } else {
            sum += x[i] * x[i];
            i++;
        }
    }
    for (; i < x.size(); i++) sum += x[i] * x[i];
    for (; j < sv.size(); j++) sum += sv[j].value * sv[j].value;
    return std::exp(-gamma_ * sum);
}

double SvmRegressor::predict(std::span<const double> x) const
{
    double sum = 0;
    for (size_t k = 0; k < coef_.size(); k++) {
        const std::span<const Node> sv(nodes_.data() + offsets_[k], offsets_[k + 1] - offsets_[k]);
        sum += coef_[k] * kernel(x, sv);
    }
    return sum - rho_;
}

}  // namespace vmaf
