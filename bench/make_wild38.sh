#!/usr/bin/env bash
# Recreate the 8 repositories of the thirty-eighth wild triage (wild38-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; point clouds
# (WangYueFt/dgcnn: DGCNN/PointNet classification with EdgeConv k-NN graphs, label-smoothed loss),
# speech enhancement (santi-pdp/segan_pytorch: SEGAN/WSEGAN/AEWSEGAN adversarial waveform denoising
# with LSGAN losses, skip connections and a discriminator step on detached fakes), optical flow
# (lliuz/ARFlow: unsupervised PWC-Net flow with augmentation-regularized self-supervision, photometric
# and smoothness losses, forward-backward occlusion masks), molecule generation (ehoogeboom/e3_diffusion_for_molecules: E(3)-equivariant diffusion model with
# EGNN dynamics, EMA, gradient clipping and property-conditioned generation), active learning
# (sinhasam/vaal: variational adversarial active learning, VAE + discriminator + task model),
# normalizing flows (ikostrikov/pytorch-flows: MADE/MAF/RealNVP/Glow flows with BatchNormFlow and
# data-dependent initialisation), a tutorial-style repo (L1aoXingyu/code-of-learn-deep-learning-with-pytorch:
# a book's notebooks and scripts: regression to ResNets, RNNs, GANs, VAE, style transfer, seq2seq), and a
# larger library / video understanding (facebookresearch/SlowFast: PySlowFast video classification and detection,
# MViT, X3D, contrastive and masked pretraining))
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild38.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild38}

REPOS=(
  "dgcnn                               WangYueFt+dgcnn                                     f765b469a67730658ba554e97dc11723a7bab628"
  "segan_pytorch                       santi-pdp+segan_pytorch                             052238718b037cd72c7fa69bc1577782e5ef015d"
  "ARFlow                              lliuz+ARFlow                                        e92a8bbe66f0ced244267f43e3e55ad0fe46ff3e"
  "e3_diffusion_for_molecules          ehoogeboom+e3_diffusion_for_molecules               fce07d701a2d2340f3522df588832c2c0f7e044a"
  "vaal                                sinhasam+vaal                                       67263f32665990a9408430a86df5b6ecd96a812d"
  "pytorch-flows                       ikostrikov+pytorch-flows                            bf12ed91b86867b38d74982f5e2d44c248604df9"
  "code-of-learn-deep-learning         L1aoXingyu+code-of-learn-deep-learning-with-pytorch ea24810dc26265e85e3eec34e1d091d21202d800"
  "SlowFast                            facebookresearch+SlowFast                           287ec0076846560f44a9327e931a5a2360240533"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
