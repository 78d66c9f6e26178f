#!/usr/bin/env bash
# Recreate the 10 repositories of the twenty-first wild triage (wild21-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; model-based RL
# (Kaixhin/PlaNet: RSSM world model, latent overshooting, CEM planner), GAN (yunjey/stargan:
# multi-domain image translation, WGAN-GP, solver class), self-supervised (facebookresearch/vicreg:
# VICReg, variance/invariance/covariance loss, distributed training), knowledge distillation
# (hunto/DIST_KD: DIST relation loss, teacher/student wrapper, timm-style trainer), meta-learning
# (ikostrikov/pytorch-meta-optimizer: learning to learn by gradient descent, LSTM optimizer
# unrolled through the optimizee), diffusion (facebookresearch/DiT: diffusion transformer, EMA,
# guided-diffusion losses), NeRF/3D (kwea123/ngp_pl: instant-NGP in Lightning, hash grid,
# occupancy grid), GNN (RexYing/diffpool: differentiable graph pooling, link-prediction and entropy
# losses), LLM fine-tuning (eric-mitchell/direct-preference-optimization: SFT and DPO trainers),
# and a larger library (pytorch/ignite: engine, trainers, handlers, metrics, contrib)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild21.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild21}

REPOS=(
  "PlaNet                         Kaixhin+PlaNet                           28c8491bc01e8f1b911300749e04c308c03db051"
  "stargan                        yunjey+stargan                           94dd002e93a2863d9b987a937b85925b80f7a19f"
  "vicreg                         facebookresearch+vicreg                  4e12602fd495af83efd1631fbe82523e6db092e0"
  "DIST_KD                        hunto+DIST_KD                            2418f18b1fedd7c2646a7b1b9a27d5c674c2170b"
  "pytorch-meta-optimizer         ikostrikov+pytorch-meta-optimizer        0154d4d4fc856163885a62bac06174311aa58caf"
  "DiT                            facebookresearch+DiT                     ed81ce2229091fd4ecc9a223645f95cf379d582b"
  "ngp_pl                         kwea123+ngp_pl                           1b49af1856a276b236e0f17539814134ed329860"
  "diffpool                       RexYing+diffpool                         8dfb97cf60c2376ac804761837b9966f1d302acb"
  "direct-preference-optimization eric-mitchell+direct-preference-optimization f8b8c0f49dc92a430bae41585f9d467d3618fe2f"
  "ignite                         pytorch+ignite                           de08e799cfb55a6cf4aa778575d6bad725385453"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
