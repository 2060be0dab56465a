#!/usr/bin/env bash
# Re-record every golden under tests/goldens/ from REAL Paddle (CPU only).
# Needs the two oracle venvs (see /work/shared/ORACLE.md):
#   P18=/work/oracle/p18  python3.8  + paddlepaddle==1.8.5 "numpy<1.20" "protobuf<=3.20.3"
#   P26=/work/oracle/p26  python3.11 + paddlepaddle==2.6.2 (+ opencv-python-headless)
# Override with P18=... P26=... ./tools/oracle/record_all.sh [case ...]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
P18="${P18:-/work/oracle/p18}"
P26="${P26:-/work/oracle/p26}"
# case-name  venv  script [args]  (the case name is the golden the line writes: tests/goldens/<case>.npz)
CASES=(
  "fit_a_line_fluid18      $P18 rec_fit_a_line_fluid18.py"
  "fit_a_line_static26     $P26 rec_fit_a_line_static26.py"
  "mlp_adam_static26       $P26 rec_mlp_adam_static26.py"
  "mlp_adam_fluid18        $P18 rec_mlp_adam_fluid18.py"
  "dp_fluid18              $P18 rec_dp_fluid18.py"
  "dygraph_convbn26        $P26 rec_dygraph_convbn26.py"
  "static_convbn_infer26   $P26 rec_static_convbn_infer26.py"
  "ops26                   $P26 rec_ops26.py"
  "ops26_functional        $P26 rec_ops26_functional.py"
  "api26                   $P26 rec_api26.py"
  "ops26_functional2x      $P26 rec_ops26_functional.py rows_functional2x ops26_functional2x"
  "nn18_dygraph            $P18 rec_nn18_dygraph.py"
  "nn18_optim              $P18 rec_nn18_optim.py"
  "nn26_decode             $P26 rec_nn26_decode.py"
  "nn26_hapi               $P26 rec_nn26_hapi.py"
  "nn26_layers             $P26 rec_nn26_layers.py"
  "nn26_layers2x           $P26 rec_nn26_layers.py nn26_layer_cases2x nn26_layers2x"
  "nn26_utils              $P26 rec_nn26_utils.py"
  "autograd26              $P26 rec_cases26.py autograd26_cases autograd26"
  "static_amp26            $P26 rec_cases26.py static_amp26_cases static_amp26"
  "geometric26             $P26 rec_cases26.py geometric26_cases geometric26"
  "profiler26              $P26 rec_cases26.py profiler26_cases profiler26"
  "attention26             $P26 rec_cases26.py attention26_cases attention26"
  "rng26                   $P26 rec_cases26.py rng26_cases rng26"
  "audio26                 $P26 rec_cases26.py audio26_cases audio26"
  "optim2x26               $P26 rec_cases26.py optim2x26_cases optim2x26"
  "incubate26              $P26 rec_cases26.py incubate26_cases incubate26"
  "distribution26          $P26 rec_cases26.py distribution26_cases distribution26"
  "static2x26              $P26 rec_cases26.py static2x26_cases static2x26"
  "incubate_autograd26     $P26 rec_cases26.py incubate_autograd26_cases incubate_autograd26"
  "paddletest26            $P26 rec_cases26.py paddletest26_cases paddletest26"
  "paddletest26_nn         $P26 rec_cases26.py paddletest26_nn_cases paddletest26_nn"
  "nn26_optim              $P26 rec_nn26_optim.py"
  "nn26_saveload           $P26 rec_nn26_saveload.py"
  "models26                $P26 rec_models26.py"
  "vision_ops26            $P26 rec_vision_ops26.py"
  "transforms26            $P26 rec_transforms26.py"
  "inference26             $P26 rec_inference26.py"
  "hapi_quickstart26       $P26 rec_hapi_quickstart26.py"
  "fluid18_layers          $P18 rec_fluid18_layers.py cases18 fluid18_layers"
  "fluid18_decode          $P18 rec_fluid18_layers.py cases18_decode fluid18_decode"
  "fluid18_misc            $P18 rec_fluid18_layers.py cases18_misc fluid18_misc"
  "fluid18_detinfer        $P18 rec_fluid18_layers.py cases18_detinfer fluid18_detinfer"
  "fluid18_dettrain        $P18 rec_fluid18_layers.py cases18_dettrain fluid18_dettrain"
  "fluid18_padded          $P18 rec_fluid18_layers.py cases18_padded fluid18_padded"
  "fluid18_det_lod         $P18 rec_fluid18_layers.py cases18_det_lod fluid18_det_lod"
  "fluid18_layers_more     $P18 rec_fluid18_layers.py cases18_layers_more fluid18_layers_more"
  "fluid18_alias           $P18 rec_fluid18_layers.py cases18_alias fluid18_alias"
  "fluid18_chunk           $P18 rec_fluid18_layers.py cases18_chunk fluid18_chunk"
  "fluid18_dettrain_masks  $P18 rec_dettrain_masks.py"
  "fluid18_fetch_lod       $P18 rec_fetch_lod18.py"
  "fluid18_lr_decay        $P18 rec_lr_decay18.py"
  "nn18_dygraph_layers     $P18 rec_dygraph_layers18.py"
  "fluid18_auc             $P18 rec_run18.py cases18_auc fluid18_auc"
  "fluid18_spectral_norm   $P18 rec_run18.py cases18_spectral_norm fluid18_spectral_norm"
  "nn26_numbers            $P26 rec_run26.py tests/nn/cases26_numbers.py nn26_numbers"
  "idioms26                $P26 rec_run26.py tests/cases26_idioms.py idioms26"
  "eigen_reduce26          $P26 rec_run26.py tests/ops/cases_eigen_reduce.py eigen_reduce26"
  "eigen_reduce18          $P18 rec_run18.py tests/ops/cases_eigen_reduce.py eigen_reduce18"
  "optimizer_bits26        $P26 rec_run26.py tests/ops/cases_optimizer_bits.py optimizer_bits26"
  "optimizer_bits18        $P18 rec_run18.py tests/ops/cases_optimizer_bits.py optimizer_bits18"
  "fluid18_nets_metrics    $P18 rec_run18.py cases18_nets_metrics fluid18_nets_metrics"
  "fluid18_optimizers      $P18 rec_run18.py cases18_optimizers fluid18_optimizers"
  "fluid18_dn_nce          $P18 rec_run18.py cases18_dn_nce fluid18_dn_nce"
  "fluid18_dygraph_more    $P18 rec_run18.py cases18_dygraph_more fluid18_dygraph_more"
  "fluid18_more_layers     $P18 rec_run18.py cases18_more_layers fluid18_more_layers"
  "fluid18_contrib_rnn     $P18 rec_run18.py cases18_contrib_rnn fluid18_contrib_rnn"
  "fluid18_amp             $P18 rec_run18.py cases18_amp fluid18_amp"
  "fluid18_contrib_misc    $P18 rec_run18.py cases18_contrib_misc fluid18_contrib_misc"
  "fluid18_contrib_text    $P18 rec_run18.py cases18_contrib_text fluid18_contrib_text"
  "fluid18_complex_dg      $P18 rec_run18.py cases18_complex_dg fluid18_complex_dg"
  "fluid18_fluidtests      $P18 rec_run18.py cases18_fluidtests fluid18_fluidtests"
  "fluid18_fluidtests2     $P18 rec_run18.py cases18_fluidtests2 fluid18_fluidtests2"
  "optimizers26_shared     $P26 rec_run26.py cases26_optimizers optimizers26_shared"
  "data18                  $P18 rec_data18.py"
  "data26                  $P26 rec_data26.py"
  "feed18                  $P18 rec_feed18.py"
  "dataset18               $P18 rec_dataset18.py"
  "hardening18             $P18 rec_hardening.py"
  "hardening26             $P26 rec_hardening.py"
  "dist_config26           $P26 rec_dist_config26.py"
  "autopar26               $P26 rec_autopar26.py"
  "autopar26_2ranks        $P26 rec_autopar26_2ranks.py"
  "autopar26_4ranks        $P26 rec_autopar26_2ranks.py 4"
  "dataset2x26             $P26 rec_run26.py tests/data/cases26_dataset2x.py dataset2x26"
)
# tests/goldens/pdmodel/ (model files, both versions): rec_pdmodel.py, run with each venv (see its docstring).
# paddle_compat/data/flags_<version>.json (the flag table): rec_flags.py <version>, run with each venv.
# paddle_compat/data/surface_<version>.json (names, kinds, one-object groups, homes): rec_surface.py <version>
#   $SHARED/reference/surface/paddle_<version>.json $SHARED/reference/surface/paddle_<version>_public.json, each venv.
want=("$@")
cd /tmp  # never run from the repo root: keeps our shims/ and paddle_compat off the venvs' sys.path
for line in "${CASES[@]}"; do
  read -r name venv script args <<<"$line"
  if [ ${#want[@]} -gt 0 ] && [[ ! " ${want[*]} " == *" $name "* ]]; then continue; fi
  echo "== $name ($venv)"
  env -u PYTHONPATH PYTHONDONTWRITEBYTECODE=1 GLOG_minloglevel=2 "$venv/bin/python" -s "$HERE/$script" $args 2>&1 \
    | grep -v -E '^(W|I)[0-9]{4} |UserWarning|warnings.warn' || true
  test -f "$HERE/../../tests/goldens/$name.npz" || test -f "$HERE/../../tests/goldens/$name.json" \
    || { echo "FAILED: $name"; exit 1; }
done
