#!/usr/bin/env bash
# Recreate the 8 repositories of the thirty-second wild triage (wild32-triage.md: every finding
# gradlint made there, triaged by a helper who had not read gradlint's code; sequence labelling
# (allanj/pytorch_neural_crf: BiLSTM/BERT encoders with a linear-chain CRF head), seq2seq with attention
# (IBM/pytorch-seq2seq: encoder-decoder RNNs, attention, supervised trainer), speech recognition
# (SeanNaren/deepspeech.pytorch: DeepSpeech2 with CTC loss), graph neural networks
# (zfjsail/gae-pytorch: graph (variational) auto-encoder), depth estimation (nianticlabs/monodepth2:
# self-supervised monocular depth and pose), image segmentation with auxiliary losses (hszhao/semseg:
# PSPNet/PSANet with an auxiliary head), contrastive learning (HobbitLong/SupContrast: SupCon and
# SimCLR losses, linear evaluation), and a larger library (flairNLP/flair: NLP framework with
# sequence taggers, CRF/Viterbi, embeddings, trainer))
set -euo pipefail

MIRROR_ROOT=${1:?usage: make_wild32.sh MIRROR_ROOT [OUT_DIR]}
OUT=${2:-/tmp/wild32}

REPOS=(
  "pytorch_neural_crf                  allanj+pytorch_neural_crf                           38c9694e94a3fc6e8abb8f5cdbc0feeb68b0a9c7"
  "pytorch-seq2seq                     IBM+pytorch-seq2seq                                 f146087a9a271e9b50f46561e090324764b081fb"
  "deepspeech.pytorch                  SeanNaren+deepspeech.pytorch                        b88a631ef6b96553e16bbaa5bd6a621435bed278"
  "gae-pytorch                         zfjsail+gae-pytorch                                 c0b95cac8eb2928d0b5d6d65fee938fe97f60262"
  "monodepth2                          nianticlabs+monodepth2                              b676244e5a1ca55564eb5d16ab521a48f823af31"
  "semseg                              hszhao+semseg                                       4f274c3f276778228bc14a4565822d46359f0cc8"
  "SupContrast                         HobbitLong+SupContrast                              66a8fe53880d6a1084b2e4e0db0a019024d6d41a"
  "flair                               flairNLP+flair                                      d4ea3777998ba67bfbe6b6b8359e024dcf673c3e"
)

SUFFIXES=".py .ipynb"
. "$(dirname "$0")/checkout_pinned.sh"
checkout_pinned
