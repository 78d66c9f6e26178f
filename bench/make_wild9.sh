#!/usr/bin/env bash
# Recreate the 10 repositories of the ninth wild triage (bench/wild9-triage.md: every finding gradlint
# made there, triaged by a helper who had not read gradlint's code; trainer, agent and learner classes)
# from fetched git snapshots, <MIRROR_ROOT>/<owner>+<name>/repo, as `fetch` brings them. Their code is
# never committed.
#
# Fetch each of these first: github:tristandeleu/pytorch-meta, github:chrhenning/hypnettorch, github:RaptorMai/online-continual-learning, github:znxlwm/pytorch-generative-model-collections, github:megvii-research/mdistiller, github:rail-berkeley/rlkit, github:PatrickHua/SimSiam, github:openai/spinningup, github:clovaai/stargan-v2, github:AntreasAntoniou/HowToTrainYourMAMLPytorch
#
# Usage: make_wild9.sh MIRROR_ROOT [OUT_DIR]   (default /tmp/wild9), then
#   gradlint check --no-cache --exit-zero --output-format concise /tmp/wild9/<name>
# and compare each finding with the triage file.
# (It sources bench/checkout_pinned.sh.)
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild9.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild9}

# name  owner+repo  commit
REPOS=(
  "pytorch-meta                           tristandeleu+pytorch-meta                      d55d89ebd47f340180267106bde3e4b723f23762"
  "hypnettorch                            chrhenning+hypnettorch                         12133c0f6828c0e06f21fd0a2c8d304741b9fd57"
  "online-continual-learning              RaptorMai+online-continual-learning            6175ca034e56435acd82b8f17ff59f920f0bc45e"
  "pytorch-generative-model-collections   znxlwm+pytorch-generative-model-collections    0d183bb5ea2fbe069e1c6806c4a9a1fd8e81656f"
  "mdistiller                             megvii-research+mdistiller                     a08d46f10d6102bd6e3f258ca5ac880b020ea259"
  "rlkit                                  rail-berkeley+rlkit                            ac45a9db24b89d97369bef302487273bcc3e3d84"
  "SimSiam                                PatrickHua+SimSiam                             75a7c51362c30e8628ad83949055ef73829ce786"
  "spinningup                             openai+spinningup                              038665d62d569055401d91856abb287263096178"
  "stargan-v2                             clovaai+stargan-v2                             875b70a150609e8a678ed8482562e7074cdce7e5"
  "HowToTrainYourMAMLPytorch              AntreasAntoniou+HowToTrainYourMAMLPytorch      86964701651c06e490271365fedb8789a72ef3f0"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
