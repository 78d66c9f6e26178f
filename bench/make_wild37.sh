#!/usr/bin/env bash
# Recreate the 8 repositories of the thirty-seventh wild triage (wild37-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; medical image registration
# (junyuchen245/TransMorph_Transformer_for_Medical_Image_Registration: Swin-transformer registration,
# spatial transformer, diffeomorphic/Bayesian variants and their baselines), remote sensing
# (justchenhao/BIT_CD: bitemporal image transformer for change detection), video prediction
# (thuml/predrnn-pytorch: PredRNN/PredRNN-v2 with reverse scheduled sampling and decoupling loss),
# pose estimation (Daniil-Osokin/lightweight-human-pose-estimation.pytorch: OpenPose-style heatmaps
# and PAFs on MobileNet), tabular deep learning (dreamquark-ai/tabnet: TabNet with sparsemax/entmax
# attentive masks, self-supervised pretraining), time-series forecasting (nnzhan/Graph-WaveNet:
# traffic forecasting with adaptive adjacency and dilated TCNs), music generation
# (gwinndr/MusicTransformer-Pytorch: relative-attention Music Transformer), and a larger library
# (XPixelGroup/BasicSR: image/video restoration training framework and model zoo))
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild37.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild37}

REPOS=(
  "TransMorph                          junyuchen245+TransMorph_Transformer_for_Medical_Image_Registration 6357a1d7fc44c36db9b1d1ccaa372409253142cf"
  "BIT_CD                              justchenhao+BIT_CD                                  adcd7aea6f234586ffffdd4e9959404f96271711"
  "predrnn-pytorch                     thuml+predrnn-pytorch                               49d3b0f3a2757ad9c299716ec455a96868455d67"
  "lightweight-human-pose-estimation   Daniil-Osokin+lightweight-human-pose-estimation.pytorch d23c284b09acf27a163e1febd511e7482cac25ed"
  "tabnet                              dreamquark-ai+tabnet                                2c0c4ebd2bb1cb639ea94ab4b11823bc49265588"
  "Graph-WaveNet                       nnzhan+Graph-WaveNet                                6b162e80c59a1d494809252eca055cff93dc66b1"
  "MusicTransformer-Pytorch            gwinndr+MusicTransformer-Pytorch                    7161590fe306578ad02d851e74e1141bd39004af"
  "BasicSR                             XPixelGroup+BasicSR                                 8d56e3a045f9fb3e1d8872f92ee4a4f07f886b0a"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
