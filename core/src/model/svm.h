// SPDX-License-Identifier: BSD-2-Clause-Patent
// A libsvm regression model (the "model" string of a libvmaf JSON model):
// parsed from libsvm's text format, evaluated as libsvm's svm_predict does.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vmaf {

class SvmRegressor {
public:
    enum class Kernel { Linear, Poly, Rbf, Sigmoid };

    // Parse libsvm's model text. Only regression models (nu_svr, epsilon_svr)
    // are accepted: they are the only kind libvmaf models hold.
    static int parse(std::string_view text, SvmRegressor *out, std::string *err);

    // The decision value for a dense feature vector: x[i] is libsvm's index i + 1.
    // Bit-identical to libsvm: same kernel arithmetic, same summation order.
    double predict(std::span<const double> x) const;

    size_t support_vector_count() const { return coef_.size(); }

private:
    struct Node {
        int index;
        double value;
    };

    double kernel(std::span<const double> x, std::span<const Node> sv) const;

    Kernel kernel_ = Kernel::Rbf;
    double gamma_ = 0, coef0_ = 0, rho_ = 0;
    int degree_ = 3;
    std::vector<double> coef_;     // one coefficient per support vector
    std::vector<Node> nodes_;      // all support vectors, back to back
    std::vector<size_t> offsets_;  // support vector i is nodes_[offsets_[i] .. offsets_[i + 1])
};

}  // namespace vmaf
