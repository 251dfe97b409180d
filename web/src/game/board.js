// The board: cm-chessboard with its Markers and PromotionDialog extensions, and the
// marks a game shows (legal-move hints, last move, premove, check, a held piece's squares).
import { Chessboard, COLOR, INPUT_EVENT_TYPE } from "cm-chessboard/src/Chessboard.js";
import { MARKER_TYPE, Markers } from "cm-chessboard/src/extensions/markers/Markers.js";
import {
  PROMOTION_DIALOG_RESULT_TYPE,
  PromotionDialog,
} from "cm-chessboard/src/extensions/promotion-dialog/PromotionDialog.js";

/** Where build.mjs copies cm-chessboard's assets, relative to the page. */
export const ASSETS_URL = "cm-chessboard/";

export const MARK = {
  hint: MARKER_TYPE.dot,
  hintCapture: MARKER_TYPE.bevel,
  lastMove: { class: "marker-last-move", slice: "markerSquare" },
  premove: { class: "marker-premove", slice: "markerSquare" },
  check: { class: "marker-check", slice: "markerCircleFilled" },
  selected: MARKER_TYPE.frame,
};

/** A board in ``element``; ``input`` (optional) gets {start(square) -> bool,
 * validate(from, to) -> bool, canceled()}: cm-chessboard's move input by drag or click. */
export function createBoard(element, { placement, orientation = "w", input = null }) {
  const board = new Chessboard(element, {
    position: placement,
    orientation: orientation === "b" ? COLOR.black : COLOR.white,
    assetsUrl: ASSETS_URL,
    style: { cssClass: "default", showCoordinates: true, animationDuration: 150 },
    extensions: [
      { class: Markers, props: { autoMarkers: MARKER_TYPE.frame } },
      { class: PromotionDialog, props: { language: "en" } },
    ],
  });
  function handler(event) {
    switch (event.type) {
      case INPUT_EVENT_TYPE.moveInputStarted:
        return input.start(event.squareFrom);
      case INPUT_EVENT_TYPE.validateMoveInput:
        // no animation of one's own click move: the board takes the next click at once
        // (cm-chessboard ignores clicks until a click move's animation is over)
        event.animate = false;
        return input.validate(event.squareFrom, event.squareTo);
      case INPUT_EVENT_TYPE.moveInputCanceled:
        input.canceled();
        return undefined;
      default:
        return undefined;
    }
  }

  // The input stays on; input.start() refuses a piece when no move may be made, so a
  // click never lands while the input is being switched over.
  if (input) board.enableMoveInput(handler);
  return {
    board,
    /** Show ``placementField`` (a FEN's first field) unless it is shown already. */
    setPosition(placementField, animated = true) {
      if (board.getPosition() === placementField) return Promise.resolve();
      return board.setPosition(placementField, animated);
    },
    setOrientation(color) {
      const want = color === "b" ? COLOR.black : COLOR.white;
      if (board.getOrientation() !== want) return board.setOrientation(want);
      return Promise.resolve();
    },
    orientation() {
      return board.getOrientation() === COLOR.black ? "b" : "w";
    },
    /** Show the squares a piece may go to (a capture's square bevelled). */
    showHints(squares) {
      board.removeMarkers(MARK.hint);
      board.removeMarkers(MARK.hintCapture);
      for (const square of squares) board.addMarker(board.getPiece(square) ? MARK.hintCapture : MARK.hint, square);
    },
    clearHints() {
      board.removeMarkers(MARK.hint);
      board.removeMarkers(MARK.hintCapture);
    },
    /** Replace the marks of ``type`` by ones on ``squares``. */
    mark(type, squares) {
      board.removeMarkers(type);
      for (const square of squares) if (square) board.addMarker(type, square);
    },
    /** The promotion choice on ``square`` for ``color``; resolves to "q", "r", "b", "n"
     * or null when cancelled. */
    choosePromotion(square, color) {
      return new Promise((resolve) => {
        board.showPromotionDialog(square, color === "b" ? COLOR.black : COLOR.white, (result) => {
          if (result && result.type === PROMOTION_DIALOG_RESULT_TYPE.pieceSelected) resolve(result.piece.charAt(1));
          else resolve(null);
        });
      });
    },
    /** A square clicked (for drops): ``listener(square)``; returns the unsubscribe. */
    onSquareClick(listener) {
      const click = (event) => {
        const target = event.target.closest ? event.target.closest("[data-square]") : null;
        if (target) listener(target.getAttribute("data-square"));
      };
      element.addEventListener("click", click);
      return () => element.removeEventListener("click", click);
    },
    destroy() {
      board.destroy();
    },
  };
}
