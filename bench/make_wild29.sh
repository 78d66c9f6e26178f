#!/usr/bin/env bash
# Recreate the 8 repositories of the twenty-ninth wild triage (wild29-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; medical image
# segmentation (LeeJunHyun/Image_Segmentation: U-Net, R2U-Net, Attention U-Net, R2AttU-Net on ISIC),
# super-resolution (leftthomas/SRGAN: SRGAN with perceptual/adversarial/TV generator loss),
# video prediction (vincent-leguen/PhyDNet: PhyCell + ConvLSTM disentangling, moment-matrix constraint),
# anomaly detection (lukasruff/Deep-SVDD-PyTorch: one-class Deep SVDD with autoencoder pretraining),
# text classification (prakashpandey9/Text-Classification-Pytorch: LSTM, attention LSTM, RCNN,
# self-attention, CNN on torchtext), molecule generation (wengong-jin/hgraph2graph: hierarchical
# graph VAE and graph-to-graph translation of molecules), recommender systems
# (huangtinglin/NGCF-PyTorch: neural graph collaborative filtering, BPR loss with L2 on embeddings),
# and a larger library (Lightning-AI/torchmetrics: metrics, some differentiable))
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild29.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild29}

REPOS=(
  "Image_Segmentation           LeeJunHyun+Image_Segmentation              5e9da9395c52b119d55dfc6532c34ac0e88f446e"
  "SRGAN                        leftthomas+SRGAN                           7ddfdf27273c42d858ec52cab5ca1cbfca81d0be"
  "PhyDNet                      vincent-leguen+PhyDNet                     23a992d771c9eb1d32f52b1873a3c5625f1a8413"
  "Deep-SVDD-PyTorch            lukasruff+Deep-SVDD-PyTorch                1901612d595e23675fb75c4ebb563dd0ffebc21e"
  "Text-Classification-Pytorch  prakashpandey9+Text-Classification-Pytorch 8649eec7a840d55e314b4b992048f3ce966fd05d"
  "hgraph2graph                 wengong-jin+hgraph2graph                   e396dbaf43f9d4ac2ee2568a4d5f93ad9e78b767"
  "NGCF-PyTorch                 huangtinglin+NGCF-PyTorch                  f4e7f6960cd8cd443d5537261d30b89cf52ed52d"
  "torchmetrics                 Lightning-AI+torchmetrics                  dab033394560ab3ce05e3d14c13f32e4cde6b351"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
