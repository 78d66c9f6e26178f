#!/usr/bin/env bash
# Recreate the 10 repositories of the twenty-second wild triage (wild22-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; RL, policy gradient
# (Khrylx/PyTorch-RL: PPO, TRPO, A2C, GAIL with GAE), image translation (NVlabs/MUNIT: multimodal
# unsupervised image-to-image translation, GAN with style/content codes), VAE (openai/vdvae: very
# deep hierarchical VAE, gradient skipping, EMA), self-supervised (facebookresearch/barlowtwins:
# cross-correlation loss, LARS), continual learning (facebookresearch/GradientEpisodicMemory: GEM,
# gradient projection by a QP, EWC/iCaRL baselines), diffusion (w86763777/pytorch-ddpm: DDPM on
# CIFAR-10, EMA), implicit neural representations / 3D (vsitzmann/siren: SIREN, SDF fitting with
# gradient constraints, Poisson and wave equations, hypernetworks), GNN (weihua916/powerful-gnns:
# GIN), speech/audio (descriptinc/melgan-neurips: MelGAN vocoder, multi-scale discriminator,
# feature matching), and a larger library (open-mmlab/mmagic: GANs, diffusion, restoration,
# editing on MMEngine)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild22.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild22}

REPOS=(
  "PyTorch-RL              Khrylx+PyTorch-RL                       72069237b4d86bcb9675b899ea94228019a4f003"
  "MUNIT                   NVlabs+MUNIT                            a82e222bc359892bd0f522d7a0f1573f3ec4a485"
  "vdvae                   openai+vdvae                            ea35b490313bc33e7f8ac63dd8132f3cc1a729b4"
  "barlowtwins             facebookresearch+barlowtwins            8e8d284ca0bc02f88b92328e53f9b901e86b4a3c"
  "GradientEpisodicMemory  facebookresearch+GradientEpisodicMemory 34c6b8e9a0607db7567301c48b727430d20bee7e"
  "pytorch-ddpm            w86763777+pytorch-ddpm                  f804ccbd58a758b07f79a3b9ecdfb1beb67258f6"
  "siren                   vsitzmann+siren                         4df34baee3f0f9c8f351630992c1fe1f69114b5f"
  "powerful-gnns           weihua916+powerful-gnns                 9a2ce8ac3e99278307093a464a95caf0fb04b602"
  "melgan-neurips          descriptinc+melgan-neurips              6488045bfba1975602288de07a58570c7b4d66ea"
  "mmagic                  open-mmlab+mmagic                       0a560bba9b79ebe78574e1d4cbbdd0e798e63568"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
