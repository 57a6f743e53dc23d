;; The first stage of the two-stage vector search: every row's int8 code times the query, with SIMD
;; (i16x8 widening and i32x4.dot_i16x8_s, eight products an instruction).
(module
  (import "env" "memory" (memory 1))
  ;; int8 rows times an int16 query: out[i] = Σ_j row[i][j] · q[j] as i32 for every row in [0, count).
  ;; Rows are `dims` bytes apart from `rows` (dims a multiple of 16); q holds dims i16 values.
  ;; With |q| ≤ 16,383 the sum fits an i32 for dims up to 4,096.
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
        (br $each))))
  ;; The exact stage's float products, with SIMD: out[i] = Σ_j rows[i][j] · q[j] as f64 for every row
  ;; in [0, count). Rows are f32, `dims` apart (dims a multiple of 4); q holds dims f64 values. Summed
  ;; as dotAt in JS sums (four running sums, one per j mod 4, then ((s0 + s1) + s2) + s3), so the
  ;; result is the same number to the last bit.
  (func (export "f32dots") (param $rows i32) (param $dims i32) (param $count i32) (param $q i32) (param $out i32)
    (local $end i32) (local $k i32) (local $v v128) (local $a v128) (local $b v128)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 3))))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $a (v128.const i64x2 0 0))
        (local.set $b (v128.const i64x2 0 0))
        (local.set $k (i32.const 0))
        (loop $chunks
          (local.set $v (v128.load (i32.add (local.get $rows) (i32.shl (local.get $k) (i32.const 2)))))
          (local.set $a
            (f64x2.add (local.get $a)
              (f64x2.mul (f64x2.promote_low_f32x4 (local.get $v)) (v128.load (i32.add (local.get $q) (i32.shl (local.get $k) (i32.const 3)))))))
          (local.set $b
            (f64x2.add (local.get $b)
              (f64x2.mul
                (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $v) (local.get $v)))
                (v128.load (i32.add (local.get $q) (i32.add (i32.shl (local.get $k) (i32.const 3)) (i32.const 16)))))))
          (local.set $k (i32.add (local.get $k) (i32.const 4)))
          (br_if $chunks (i32.lt_u (local.get $k) (local.get $dims))))
        (f64.store (local.get $out)
          (f64.add
            (f64.add
              (f64.add (f64x2.extract_lane 0 (local.get $a)) (f64x2.extract_lane 1 (local.get $a)))
              (f64x2.extract_lane 0 (local.get $b)))
            (f64x2.extract_lane 1 (local.get $b))))
        (local.set $rows (i32.add (local.get $rows) (i32.shl (local.get $dims) (i32.const 2))))
        (local.set $out (i32.add (local.get $out) (i32.const 8)))
        (br $each)))))
