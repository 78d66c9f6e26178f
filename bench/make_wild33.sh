#!/usr/bin/env bash
# Recreate the 8 repositories of the thirty-third wild triage (wild33-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; sequential recommendation
# (pmixer/SASRec.pytorch: self-attentive sequential recommender with BCE on sampled negatives),
# time-series forecasting (cure-lab/LTSF-Linear: DLinear/NLinear and the Transformer baselines),
# semi-supervised medical image segmentation (HiLab-git/SSL4MIS: mean teacher, UA-MT, CPS, URPC, ...),
# OCR / scene text recognition (clovaai/deep-text-recognition-benchmark: TPS-ResNet-BiLSTM-Attn/CTC),
# video action recognition (mit-han-lab/temporal-shift-module: TSM/TSN), meta-/continual learning with
# MAML-like inner loops (montrealrobotics/La-MAML: La-MAML, C-MAML, iCaRL, GEM, ER baselines), model
# compression (666DZY666/micronet: quantization-aware training, pruning, BN fusing), and a larger library
# (facebookresearch/pytorchvideo: video model zoo, losses, transforms, accelerator ops))
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild33.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild33}

REPOS=(
  "SASRec.pytorch                      pmixer+SASRec.pytorch                               fde8a9c08febc2c898dc269b1d98ab762c50d2be"
  "LTSF-Linear                         cure-lab+LTSF-Linear                                0c113668a3b88c4c4ee586b8c5ec3e539c4de5a6"
  "SSL4MIS                             HiLab-git+SSL4MIS                                   06df6047a59aba9988ced8331998b5957ecb356b"
  "deep-text-recognition-benchmark     clovaai+deep-text-recognition-benchmark             e2117f2fb882b3c6085030500a260c113be27a63"
  "temporal-shift-module               mit-han-lab+temporal-shift-module                   1f6a834b02120441d99fa706b7a13ccc5293c6fa"
  "La-MAML                             montrealrobotics+La-MAML                            cff3524b0f23b932d574931c3a7495c42cbd8d9d"
  "micronet                            666DZY666+micronet                                  c31cdd28ed72376e861704addf718ac485919621"
  "pytorchvideo                        facebookresearch+pytorchvideo                       f3142bb05cdb56af0704ab6f0adfb0c7bbafe4a0"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
