// SPDX-License-Identifier: BSD-2-Clause-Patent
// A small synthetic model in libvmaf's JSON schema (not a trained model): the
// fuzz targets load it to have features to overload and a model to score with.
#pragma once

namespace fuzz {

inline constexpr char kModelJson[] = R"({"model_dict": {
  "model_type": "LIBSVMNUSVR", "norm_type": "linear_rescale",
  "feature_names": ["VMAF_integer_feature_adm2_score", "VMAF_integer_feature_motion2_score",
                    "VMAF_integer_feature_vif_scale0_score", "psnr_y"],
  "feature_opts_dicts": [{"adm_enhn_gain_limit": 1.0}, {}, {"vif_enhn_gain_limit": 1.5}, {}],
  "slopes": [0.01, 1.0, 0.05, 1.0, 0.02], "intercepts": [-0.3, 0.0, 0.0, 0.0, 0.0],
  "score_clip": [0.0, 100.0],
  "score_transform": {"enabled": true, "p0": 1.0, "p1": 1.1, "p2": -0.001,
                      "knots": [[0, 0], [50, 55], [100, 100]], "out_gte_in": "true"},
  "model": "svm_type nu_svr\nkernel_type rbf\ngamma 0.04\nnr_class 2\ntotal_sv 2\nrho -1.3\nSV\n-4 1:0.6 2:0.3 3:0.09\n4 1:0.8 2:0.5 4:0.6\n"
}})";

}  // namespace fuzz
