#!/usr/bin/env bash
# Recreate the 8 repositories of the twenty-sixth wild triage (wild26-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; RL + meta-learning
# (tristandeleu/pytorch-maml-rl: MAML-TRPO, conjugate gradient, Hessian-vector products, GAE),
# adversarial training (yaodongyu/TRADES: TRADES KL-regularised training with an inner PGD, PGD/CW evaluation attacks),
# VAE (1Konny/Beta-VAE: beta-VAE H and B with capacity annealing), self-supervised
# (Spijkervet/SimCLR: SimCLR NT-Xent, LARS, linear evaluation), 3D point clouds
# (AnTao97/dgcnn.pytorch: DGCNN / PointNet classification, part and semantic segmentation),
# GNN + recommendation (gusye1234/LightGCN-PyTorch: LightGCN with BPR loss), physics-informed
# nets (jayroxis/PINNs: Burgers inference and identification PINNs, Adam then L-BFGS), and a larger library
# (asteroid-team/asteroid: audio source-separation toolkit, models, losses, Lightning system))
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild26.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild26}

REPOS=(
  "pytorch-maml-rl               tristandeleu+pytorch-maml-rl            21d4ba1ccd300a403928e6db553c9529bcc3fbdf"
  "TRADES                        yaodongyu+TRADES                        6e8e11b7c281371c2f027ffadfbaea80361f09de"
  "Beta-VAE                      1Konny+Beta-VAE                         977a1ece88e190dd8a556b4e2efb665f759d0772"
  "SimCLR                        Spijkervet+SimCLR                       2738efae85b3ca1b70b7919c5d7a7837d9d75235"
  "dgcnn.pytorch                 AnTao97+dgcnn.pytorch                   07d534c2702905010ec9991619f552d8cacae45b"
  "LightGCN-PyTorch              gusye1234+LightGCN-PyTorch              947ca2b3b1d2d3545b114145710cb06c4e57b3d2"
  "PINNs                         jayroxis+PINNs                          fcc37d2fb2c920eebddd29ea141bf9b3caba4d92"
  "asteroid                      asteroid-team+asteroid                  92c8d83a9dbe7c3afd1cd097e31254e0b4f82881"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
