//! Move strings, move names and pictures.

use game_core::Game;

use super::{from_picture, game, Rng};
use crate::Error;

/// The message of an illegal-move error.
fn illegal(result: Result<crate::ConnectFourPosition, Error>) -> String {
    match result {
        Err(Error::Core(game_core::Error::IllegalMove(msg))) => msg,
        other => panic!("expected an illegal move, got {other:?}"),
    }
}

#[test]
fn bad_move_strings_name_the_bad_character() {
    let g = game(7, 6);
    let cases = [
        ("1238", "character 4 ('8')", "not a column"),
        ("0", "character 1 ('0')", "not a column"),
        ("44x", "character 3 ('x')", "not a column"),
        ("4 4", "character 2 (' ')", "not a column"),
        ("1111111", "character 7 ('1')", "column 1 is full"),
        ("12121212", "character 8 ('2')", "X has four in a row"),
        ("44574455661", "character 11 ('1')", "O has four in a row"),
    ];
    for (line, place, why) in cases {
        let msg = illegal(g.position_from_moves(line));
        assert!(msg.contains(place) && msg.contains(why), "{line}: {msg}");
    }
    // One move past a full 4×4 board (a tie).
    let msg = illegal(game(4, 4).position_from_moves("34142123412331421"));
    assert!(
        msg.contains("character 17") && msg.contains("board is full"),
        "{msg}"
    );
    // A game over on the last square is over, too.
    let msg = illegal(game(4, 4).position_from_moves("43443422223311113"));
    assert!(
        msg.contains("character 17") && msg.contains("O has four"),
        "{msg}"
    );
}

#[test]
fn the_empty_string_is_the_start() {
    let g = game(7, 6);
    assert_eq!(g.position_from_moves("").unwrap(), g.start());
}

#[test]
fn pictures_show_x_for_the_first_player() {
    let g = game(5, 3);
    let pos = g.position_from_moves("3345").unwrap();
    let picture = "\
. . . . .
. . O . .
. . X X O
1 2 3 4 5
";
    assert_eq!(g.picture(&pos), picture);
    assert_eq!(pos, from_picture(&g, picture));
    assert!(pos.first_to_move());
}

/// Move names read back: random games on a standard and on a wide board
/// (columns past 9 are letters).
#[test]
fn move_names_round_trip() {
    let mut rng = Rng(0x5eed);
    for (w, h) in [(7, 6), (21, 2), (32, 1)] {
        let g = game(w, h);
        assert_eq!(g.format_move(0), "1");
        assert_eq!(g.format_move(8), "9");
        assert_eq!(g.format_move(9), "a");
        for _ in 0..20 {
            let mut pos = g.start();
            let mut line = Vec::new();
            let mut moves = Vec::new();
            while g.outcome(&pos).is_none() {
                moves.clear();
                g.moves(&pos, &mut moves);
                let m = moves[rng.below(moves.len() as u64) as usize];
                line.push(m);
                pos = g.play(&pos, &m);
            }
            let text = g.format_moves(&line);
            assert_eq!(text.chars().count(), line.len());
            assert_eq!(g.position_from_moves(&text).unwrap(), pos, "{text}");
            assert_eq!(g.position_from_moves(&text.to_uppercase()).unwrap(), pos);
        }
    }
}
