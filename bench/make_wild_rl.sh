#!/usr/bin/env bash
# Recreate the 10 repositories of the RL wild triage (bench/wild-rl-triage.md: every finding
# gradlint made there, triaged by hand) from fetched git snapshots: bare git dirs with no work
# tree, <MIRROR_ROOT>/<owner>+<name>/repo, as `fetch` brings them. Their code is never committed.
#
# Fetch each of these first (fetch prints where it put it):
#   github:philtabor/Actor-Critic-Methods-Paper-To-Code, github:p-christ/Deep-Reinforcement-Learning-Algorithms-with-PyTorch,
#   github:sweetice/Deep-reinforcement-learning-with-pytorch, github:ShangtongZhang/DeepRL,
#   github:nikhilbarhate99/PPO-PyTorch, github:MorvanZhou/pytorch-A3C, github:pranz24/pytorch-soft-actor-critic,
#   github:udacity/deep-reinforcement-learning, github:sthalles/SimCLR, github:lorenmt/mtan
#
# Usage: make_wild_rl.sh MIRROR_ROOT [OUT_DIR]   (default /tmp/wild_rl), then
#   gradlint check --no-cache --exit-zero --output-format concise /tmp/wild_rl
# and compare each finding with the triage file.
#
# Only *.py and *.ipynb regular files of the pinned commit are checked out (snapshots lack
# large and LFS files, so `git archive` can fail: a temporary index + checkout-index avoids
# that and never writes into the mirror).
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild_rl.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wildrl}

# name  owner+repo  commit
REPOS=(
  "Actor-Critic-Methods-Paper-To-Code           philtabor+Actor-Critic-Methods-Paper-To-Code           10d46855496eb2dd2edc3b27db898950ce62f624"
  "Deep-Reinforcement-Learning-Algorithms-with-PyTorch  p-christ+Deep-Reinforcement-Learning-Algorithms-with-PyTorch  4835bac8557fdacff1735eca004e35ea5a4b7443"
  "Deep-reinforcement-learning-with-pytorch     sweetice+Deep-reinforcement-learning-with-pytorch     7b9fac7e5e40ffdc6f7ccb8b0a81e7841370a996"
  "DeepRL                                       ShangtongZhang+DeepRL                                 c0968b5c046314af09944843cdf06f4100c6bb95"
  "PPO-PyTorch                                  nikhilbarhate99+PPO-PyTorch                           728cce83d7ab628fe2634eabcdf3239997eb81dd"
  "pytorch-A3C                                  MorvanZhou+pytorch-A3C                                5ab27abee2c3ac3ca921ac393bfcbda4e0a91745"
  "pytorch-soft-actor-critic                    pranz24+pytorch-soft-actor-critic                     c1805660b3961694be54079a355155a5cad492f5"
  "udacity-drl                                  udacity+deep-reinforcement-learning                   561eec3ae8678a23a4557f1a15414a9b076fdfff"
  "SimCLR                                       sthalles+SimCLR                                       1848fc934ad844ae630e6c452300433fe99acfd9"
  "mtan                                         lorenmt+mtan                                          c36c30baa18968dec74fe9039abcfd4f132edfa1"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
