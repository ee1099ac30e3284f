// Time comes from a Clock so that tests can freeze it; domain code never calls Date.now().
export interface Clock {
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }
