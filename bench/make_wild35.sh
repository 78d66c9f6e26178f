#!/usr/bin/env bash
# Recreate the 8 repositories of the thirty-fifth wild triage (wild35-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; speech synthesis and
# vocoders (fatchord/WaveRNN: Tacotron TTS and WaveRNN vocoder), neural ODEs (YuliaRubanova/latent_ode:
# latent ODEs and ODE-RNNs for irregularly sampled time series), Bayesian deep learning
# (piEsposito/blitz-bayesian-deep-learning: Bayes-by-backprop layers, variational estimator decorator),
# tabular deep learning (yandex-research/tabular-dl-revisiting-models: MLP, ResNet, FT-Transformer and
# baselines), multimodal vision-language (salesforce/ALBEF: align-before-fuse pretraining with
# momentum distillation, VQA, retrieval, grounding), point clouds (stevenygd/PointFlow: point-cloud
# generation with continuous normalizing flows), imitation learning (ARISE-Initiative/robomimic:
# behaviour cloning, BC-RNN, BCQ, CQL, IRIS, HBC), and a larger library (allenai/allennlp: NLP
# training framework with trainer, models, modules, interpret))
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild35.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild35}

REPOS=(
  "WaveRNN                             fatchord+WaveRNN                                    83c08fdcd625be56244f4145f41500468974b144"
  "latent_ode                          YuliaRubanova+latent_ode                            c0682d4f52b806fb88d965755892eadd9783f936"
  "blitz-bayesian-deep-learning        piEsposito+blitz-bayesian-deep-learning             5af11742484852c8bf69ad6fef27c230a2a0ecc2"
  "tabular-dl-revisiting-models        yandex-research+tabular-dl-revisiting-models        e3ed46cac38568785289d8fa16b8cfa585bde27e"
  "ALBEF                               salesforce+ALBEF                                    b9727e43c3040491774d1b22cc27718aa7772fac"
  "PointFlow                           stevenygd+PointFlow                                 26e8c26ef170cc5c86f4b8c211af56a44c0a64df"
  "robomimic                           ARISE-Initiative+robomimic                          d309eaecc18acf4152a830a895a6984b8ac71b05"
  "allennlp                            allenai+allennlp                                    80fb6061e568cb9d6ab5d45b661e86eb61b92c82"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
