#!/bin/sh
# Remakes the files of this corpus that GNU Backgammon 1.07.001 wrote (Debian
# package gnubg; run from the repository root):
#   sgf/gnubg-bglab-lasse-match*.sgf, mat/gnubg-bglab-lasse-match8640511.mat
#     gnubg's import of the Galaxy transcripts mat/bglab-lasse-match*.txt,
#     analysed at 0 ply and saved as SGF and exported as .mat;
#   ids/gnubg-opening-board.txt, ids/gnubg-hypergammon-board.txt
#     boards gnubg prints in its text mode;
#   ../archive/gnubg-bglab-lasse-match8640511*.txt
#     gnubg's text export of the first match, one file per game.
set -eu
GNUBG=${GNUBG:-/usr/games/gnubg}
CORPUS=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

for match in 8640511 8463624; do
    cp "$CORPUS/mat/bglab-lasse-match$match.txt" "$WORK/in.mat"
    cat > "$WORK/commands" <<END
set analysis chequerplay evaluation plies 0
set analysis cubedecision evaluation plies 0
import mat $WORK/in.mat
analyse match
save match $WORK/out.sgf
export match mat $WORK/out.mat
END
    "$GNUBG" -t -q -c "$WORK/commands" > /dev/null 2>&1
    cp "$WORK/out.sgf" "$CORPUS/sgf/gnubg-bglab-lasse-match$match.sgf"
    if [ "$match" = 8640511 ]; then
        cp "$WORK/out.mat" "$CORPUS/mat/gnubg-bglab-lasse-match$match.mat"
        printf 'import mat %s\nexport match text %s\n' "$WORK/in.mat" "$WORK/text.txt" > "$WORK/commands"
        "$GNUBG" -t -q -c "$WORK/commands" > /dev/null 2>&1
        for game in "$WORK"/text*.txt; do
            name=$(basename "$game")
            cp "$game" "$CORPUS/../archive/gnubg-bglab-lasse-match$match${name#text}"
        done
    fi
done

# The opening: gnubg (O) wins the opening roll with 4-1 under seed 3.
printf 'set seed 3\nset player 1 name jth\nnew session\n' > "$WORK/commands"
"$GNUBG" -t -q -c "$WORK/commands" 2> /dev/null \
    | awk '/ rolls [1-6], /{f=1} f' | awk '/ moves /{print; exit} {print}' > "$CORPUS/ids/gnubg-opening-board.txt"

# A 3-checker hypergammon position set by its Position ID, X (jth) on roll.
printf 'set variation 3-chequer-hypergammon\nset player 1 name jth\nset player 0 human\nnew session\nset turn jth\nset board ADAAAQAkIAAAAA\n' \
    > "$WORK/commands"
"$GNUBG" -t -q -c "$WORK/commands" 2> /dev/null \
    | awk '/is now on roll/{f=1; next} f' | awk 'NR > 1 && NF == 0 {exit} {print}' > "$CORPUS/ids/gnubg-hypergammon-board.txt"
