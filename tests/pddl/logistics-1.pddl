; One package from a house in city 1 to a house in city 2: truck, plane, truck.
(define (problem logistics-1)
  (:domain logistics)
  (:objects c1 c2 - city
            ap1 ap2 - airport
            h1 h2 - location
            t1 t2 - truck
            plane - airplane
            p1 - package)
  (:init (in-city ap1 c1) (in-city h1 c1) (in-city ap2 c2) (in-city h2 c2)
         (at t1 h1) (at t2 ap2) (at plane ap2) (at p1 h1))
  (:goal (at p1 h2)))
