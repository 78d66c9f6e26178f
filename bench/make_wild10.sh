#!/usr/bin/env bash
# Recreate the 10 repositories of the tenth wild triage (bench/wild10-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; MARL, GANs,
# self-supervised, meta-learning, diffusion, NeRF, speech, continual learning, adversarial
# training, domain adaptation)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild10.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild10}

REPOS=(
  "pymarl                         oxwhirl+pymarl                           c971afdceb34635d31b778021b0ef90d7af51e86"
  "stylegan2-ada-pytorch          NVlabs+stylegan2-ada-pytorch             d72cc7d041b42ec8e806021a205ed9349f87c6a4"
  "swav                           facebookresearch+swav                    06b1b7cbaf6ba2a792300d79c7299db98b93b7f9"
  "MetaOptNet                     kjunelee+MetaOptNet                      19601591da8090734e2e69113c9510831da5528a"
  "latent-diffusion               CompVis+latent-diffusion                 a506df5756472e2ebaf9078affdde2c4f1502cd4"
  "TensoRF                        apchenstu+TensoRF                        6a1e23b10b9521221049aec843ab370a747a7982"
  "vits                           jaywalnut310+vits                        2e561ba58618d021b5b8323d3765880f7e0ecfdb"
  "PyCIL                          G-U-N+PyCIL                              87cc4110d60765dc3f64af7ef7a693efed8418ff"
  "advertorch                     BorealisAI+advertorch                    e063e341c87d9a621ae1a8f72c3507d5ea5bd327"
  "Transfer-Learning-Library      thuml+Transfer-Learning-Library          c4aa59eb565650a552b809411601d0589efbbfe4"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
