// Generated from src/schemas/zod/orders.ts by scripts/compile-schemas.ts: do not edit.
// The fast paths of its hot request checks (scripts/compile-fast.ts): straight-line code that
// returns the parsed value when it is sure the value passes, else REFUSE (the full check then runs).

import { UUID_PATTERN } from '../../internal/uuid.js';
import { type Accept, type AnyValue, REFUSE } from '../check/index.js';
import { isSecureUrl } from '../common.js';
import { isPositive, level3Issues } from '../rules/level3.js';
import { anyValue, metadataIssues } from '../rules/metadata.js';
import { hostedCheckoutIssues } from '../rules/orders.js';

const PATTERN_0 = /* @__PURE__ */ /^\+[1-9]\d{1,14}$/;
const PATTERN_1 =
  /* @__PURE__ */ /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
export const acceptOrderCreateRequest: Accept | undefined = (input: AnyValue) => {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return REFUSE;
  const o0: AnyValue = {};
  const v1 = input.location_id;
  if (v1 !== undefined || 'location_id' in input) {
    if (typeof v1 !== 'string') return REFUSE;
    if (!UUID_PATTERN.test(v1)) return REFUSE;
    o0.location_id = v1;
  } else return REFUSE;
  const v2 = input.total_cents;
  if (v2 !== undefined || 'total_cents' in input) {
    if (!Number.isSafeInteger(v2)) return REFUSE;
    if (v2 <= 0) return REFUSE;
    o0.total_cents = v2;
  } else return REFUSE;
  const v3 = input.description;
  if (v3 !== undefined || 'description' in input) {
    if (v3 !== undefined) {
      if (typeof v3 !== 'string') return REFUSE;
    }
    o0.description = v3;
  }
  const v4 = input.external_reference;
  if (v4 !== undefined || 'external_reference' in input) {
    if (v4 !== undefined) {
      if (typeof v4 !== 'string') return REFUSE;
    }
    o0.external_reference = v4;
  }
  const v5 = input.external_source;
  if (v5 !== undefined || 'external_source' in input) {
    if (v5 !== undefined) {
      if (typeof v5 !== 'string') return REFUSE;
    }
    o0.external_source = v5;
  }
  const v6 = input.external_id;
  if (v6 !== undefined || 'external_id' in input) {
    if (v6 !== undefined) {
      if (typeof v6 !== 'string') return REFUSE;
    }
    o0.external_id = v6;
  }
  const v7 = input.customer_name;
  if (v7 !== undefined || 'customer_name' in input) {
    if (v7 !== undefined) {
      if (typeof v7 !== 'string') return REFUSE;
    }
    o0.customer_name = v7;
  }
  const v8 = input.customer_phone;
  if (v8 !== undefined || 'customer_phone' in input) {
    if (v8 !== undefined) {
      if (typeof v8 !== 'string') return REFUSE;
      if (!PATTERN_0.test(v8)) return REFUSE;
    }
    o0.customer_phone = v8;
  }
  const v9 = input.customer_email;
  if (v9 !== undefined || 'customer_email' in input) {
    if (v9 !== undefined) {
      if (typeof v9 !== 'string') return REFUSE;
      if (!PATTERN_1.test(v9)) return REFUSE;
    }
    o0.customer_email = v9;
  }
  const v10 = input.department_id;
  if (v10 !== undefined || 'department_id' in input) {
    if (v10 !== undefined) {
      if (typeof v10 !== 'string') return REFUSE;
      if (!UUID_PATTERN.test(v10)) return REFUSE;
    }
    o0.department_id = v10;
  }
  const v11 = input.metadata;
  if (v11 !== undefined || 'metadata' in input) {
    if (v11 !== undefined) {
      if (!anyValue(v11)) return REFUSE;
      if (metadataIssues(v11).length !== 0) return REFUSE;
    }
    o0.metadata = v11;
  }
  const v12 = input.level3;
  if (v12 !== undefined || 'level3' in input) {
    let v30 = v12;
    if (v12 !== undefined) {
      if (typeof v12 !== 'object' || v12 === null || Array.isArray(v12)) return REFUSE;
      const o13: AnyValue = {};
      const v14 = v12.tax_amount_cents;
      if (v14 !== undefined || 'tax_amount_cents' in v12) {
        if (!Number.isSafeInteger(v14)) return REFUSE;
        if (v14 < 0) return REFUSE;
        o13.tax_amount_cents = v14;
      } else return REFUSE;
      const v15 = v12.line_items;
      if (v15 !== undefined || 'line_items' in v12) {
        if (!Array.isArray(v15)) return REFUSE;
        if (v15.length < 1) return REFUSE;
        const a16 = new Array(v15.length);
        for (let i17 = 0; i17 < v15.length; i17++) {
          const v18 = v15[i17];
          if (typeof v18 !== 'object' || v18 === null || Array.isArray(v18)) return REFUSE;
          const o19: AnyValue = {};
          const v20 = v18.description;
          if (v20 !== undefined || 'description' in v18) {
            if (typeof v20 !== 'string') return REFUSE;
            if (v20.length < 1) return REFUSE;
            if (v20.length > 40) return REFUSE;
            o19.description = v20;
          } else return REFUSE;
          const v21 = v18.quantity;
          if (v21 !== undefined || 'quantity' in v18) {
            if (typeof v21 !== 'number' || !Number.isFinite(v21)) return REFUSE;
            if (!Number.isFinite(v21)) return REFUSE;
            if (!isPositive(v21)) return REFUSE;
            o19.quantity = v21;
          } else return REFUSE;
          const v22 = v18.unit_price_cents;
          if (v22 !== undefined || 'unit_price_cents' in v18) {
            if (!Number.isSafeInteger(v22)) return REFUSE;
            if (v22 < 0) return REFUSE;
            o19.unit_price_cents = v22;
          } else return REFUSE;
          const v23 = v18.total_cents;
          if (v23 !== undefined || 'total_cents' in v18) {
            if (!Number.isSafeInteger(v23)) return REFUSE;
            if (v23 < 0) return REFUSE;
            o19.total_cents = v23;
          } else return REFUSE;
          const v24 = v18.tax_amount_cents;
          if (v24 !== undefined || 'tax_amount_cents' in v18) {
            if (v24 !== undefined) {
              if (!Number.isSafeInteger(v24)) return REFUSE;
              if (v24 < 0) return REFUSE;
            }
            o19.tax_amount_cents = v24;
          }
          const v25 = v18.product_code;
          if (v25 !== undefined || 'product_code' in v18) {
            if (v25 !== undefined) {
              if (typeof v25 !== 'string') return REFUSE;
            }
            o19.product_code = v25;
          }
          const v26 = v18.unit_of_measure;
          if (v26 !== undefined || 'unit_of_measure' in v18) {
            if (v26 !== undefined) {
              if (typeof v26 !== 'string') return REFUSE;
            }
            o19.unit_of_measure = v26;
          }
          for (const k27 in v18)
            switch (k27) {
              case 'description':
              case 'quantity':
              case 'unit_price_cents':
              case 'total_cents':
              case 'tax_amount_cents':
              case 'product_code':
              case 'unit_of_measure':
                continue;
              default:
                return REFUSE;
            }
          a16[i17] = o19;
        }
        o13.line_items = a16;
      } else return REFUSE;
      const v28 = v12.customer_reference;
      if (v28 !== undefined || 'customer_reference' in v12) {
        if (v28 !== undefined) {
          if (typeof v28 !== 'string') return REFUSE;
        }
        o13.customer_reference = v28;
      }
      for (const k29 in v12)
        switch (k29) {
          case 'tax_amount_cents':
          case 'line_items':
          case 'customer_reference':
            continue;
          default:
            return REFUSE;
        }
      if (level3Issues(o13).length !== 0) return REFUSE;
      v30 = o13;
    }
    o0.level3 = v30;
  }
  const v31 = input.return_url;
  if (v31 !== undefined || 'return_url' in input) {
    if (v31 !== undefined) {
      if (typeof v31 !== 'string') return REFUSE;
      if (!isSecureUrl(v31)) return REFUSE;
    }
    o0.return_url = v31;
  }
  const v32 = input.cancel_url;
  if (v32 !== undefined || 'cancel_url' in input) {
    if (v32 !== undefined) {
      if (typeof v32 !== 'string') return REFUSE;
      if (!isSecureUrl(v32)) return REFUSE;
    }
    o0.cancel_url = v32;
  }
  for (const k33 in input)
    switch (k33) {
      case 'location_id':
      case 'total_cents':
      case 'description':
      case 'external_reference':
      case 'external_source':
      case 'external_id':
      case 'customer_name':
      case 'customer_phone':
      case 'customer_email':
      case 'department_id':
      case 'metadata':
      case 'level3':
      case 'return_url':
      case 'cancel_url':
        continue;
      default:
        return REFUSE;
    }
  if (hostedCheckoutIssues(o0).length !== 0) return REFUSE;
  return o0;
};
