#!/usr/bin/env bash
# Recreate the 8 repositories of the twenty-seventh wild triage (wild27-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; self-supervised
# (sthalles/PyTorch-BYOL: BYOL with a momentum target network and predictor), meta-learning
# (fmu2/PyTorch-MAML: second-order and first-order MAML on mini-ImageNet with functional inner loops),
# adversarial training (locuslab/fast_adversarial: FGSM "fast is better than free" training, free and PGD
# training, PGD evaluation, on MNIST, CIFAR-10 and ImageNet), tracking (huanglianghua/siamfc-pytorch:
# SiamFC fully-convolutional Siamese tracker), recommendation (maciejkula/spotlight: implicit/explicit
# factorization and sequence models, BPR/hinge/adaptive losses), 3D (ThibaultGROUEIX/AtlasNet: surface
# generation from point clouds and images with Chamfer loss), physics-informed nets
# (akshitmanocha/Navier-Stokes-with-PINNs: stream-function PINN for Navier-Stokes, Adam and L-BFGS), and a
# larger library (RUCAIBox/RecBole: recommendation library, ~90 models, trainers))
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild27.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild27}

REPOS=(
  "PyTorch-BYOL                  sthalles+PyTorch-BYOL                   f007ed6b3619a3ae00eb9c95cde342eac5b98923"
  "PyTorch-MAML                  fmu2+PyTorch-MAML                       19246a1ff9a1f47470dce80ed9e9332042f9e151"
  "fast_adversarial              locuslab+fast_adversarial               54f728755e71857b632882ba6d6cef22f56e2172"
  "siamfc-pytorch                huanglianghua+siamfc-pytorch            39572051d7c3d9850ca6100efa04091e18c2f706"
  "spotlight                     maciejkula+spotlight                    75f4c8c55090771b52b88ef1a00f75bb39f9f2a9"
  "AtlasNet                      ThibaultGROUEIX+AtlasNet                c9aba65c670182b71ff55afc5fadcea9e43eecd8"
  "Navier-Stokes-with-PINNs      akshitmanocha+Navier-Stokes-with-PINNs  ad7a6f80845c68c60c2adbefc37d69d5c16931c1"
  "RecBole                       RUCAIBox+RecBole                        7b02be5ec80a88310f2d04a27a82adfcbb5dc211"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
