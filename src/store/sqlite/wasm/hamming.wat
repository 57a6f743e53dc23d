;; Hamming distances between one query's sign bits and every row's, with SIMD popcounts.
;; Rows sit at `bits` one after another, `stride` bytes apart; each row's first `vecs` × 16 bytes
;; are compared with the query's at `q`. Distance i goes to the u16 at out + 2i.
;; Each byte lane's count stays below 256 for vecs ≤ 31 (rows of up to 3,968 bits).
(module
  (import "env" "memory" (memory 1))
  (func (export "hamming") (param $bits i32) (param $stride i32) (param $count i32) (param $q i32) (param $vecs i32) (param $out i32)
    (local $row i32) (local $end i32) (local $k i32) (local $acc v128) (local $sum v128)
    (local.set $row (local.get $bits))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 1))))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $acc (v128.const i64x2 0 0))
        (local.set $k (i32.const 0))
        (loop $words
          (local.set $acc
            (i8x16.add (local.get $acc)
              (i8x16.popcnt
                (v128.xor
                  (v128.load (i32.add (local.get $row) (i32.shl (local.get $k) (i32.const 4))))
                  (v128.load (i32.add (local.get $q) (i32.shl (local.get $k) (i32.const 4))))))))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br_if $words (i32.lt_u (local.get $k) (local.get $vecs))))
        (local.set $sum (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $acc))))
        (i32.store16 (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $sum)) (i32x4.extract_lane 1 (local.get $sum)))
            (i32.add (i32x4.extract_lane 2 (local.get $sum)) (i32x4.extract_lane 3 (local.get $sum)))))
        (local.set $row (i32.add (local.get $row) (local.get $stride)))
        (local.set $out (i32.add (local.get $out) (i32.const 2)))
        (br $rows))))
  ;; int8 rows times an int16 query, for chosen rows: out[i] = Σ_j row[slots[i]][j] · q[j] as i32.
  ;; Rows are `dims` bytes apart from `rows` (dims a multiple of 16); q holds dims i16 values; slots
  ;; and out hold n i32 each. With |q| ≤ 16,383 the sum fits an i32 for dims up to 4,096.
  (func (export "int8dots") (param $rows i32) (param $dims i32) (param $slots i32) (param $n i32) (param $q i32) (param $out i32)
    (local $end i32) (local $row i32) (local $k i32) (local $v v128) (local $acc v128)
    (local.set $end (i32.add (local.get $slots) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $slots) (local.get $end)))
        (local.set $row (i32.add (local.get $rows) (i32.mul (i32.load (local.get $slots)) (local.get $dims))))
        (local.set $acc (v128.const i64x2 0 0))
        (local.set $k (i32.const 0))
        (loop $chunks
          (local.set $v (v128.load (i32.add (local.get $row) (local.get $k))))
          (local.set $acc
            (i32x4.add (local.get $acc)
              (i32x4.add
                (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load (i32.add (local.get $q) (i32.shl (local.get $k) (i32.const 1)))))
                (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load (i32.add (local.get $q) (i32.add (i32.shl (local.get $k) (i32.const 1)) (i32.const 16))))))))
          (local.set $k (i32.add (local.get $k) (i32.const 16)))
          (br_if $chunks (i32.lt_u (local.get $k) (local.get $dims))))
        (i32.store (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $slots (i32.add (local.get $slots) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $each))))
  ;; The same product for every row in [0, count): out[i] = Σ_j row[i][j] · q[j] as i32.
  (func (export "int8all") (param $rows i32) (param $dims i32) (param $count i32) (param $q i32) (param $out i32)
    (local $end i32) (local $k i32) (local $v v128) (local $acc v128)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $acc (v128.const i64x2 0 0))
        (local.set $k (i32.const 0))
        (loop $chunks
          (local.set $v (v128.load (i32.add (local.get $rows) (local.get $k))))
          (local.set $acc
            (i32x4.add (local.get $acc)
              (i32x4.add
                (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load (i32.add (local.get $q) (i32.shl (local.get $k) (i32.const 1)))))
                (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load (i32.add (local.get $q) (i32.add (i32.shl (local.get $k) (i32.const 1)) (i32.const 16))))))))
          (local.set $k (i32.add (local.get $k) (i32.const 16)))
          (br_if $chunks (i32.lt_u (local.get $k) (local.get $dims))))
        (i32.store (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $rows (i32.add (local.get $rows) (local.get $dims)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $each)))))
